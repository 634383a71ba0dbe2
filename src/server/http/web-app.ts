import { hash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorCodes } from '../../contract/error-codes.ts';
import { PAGE_DATA_ELEMENT_ID, SHOP_CONFIG_ELEMENT_ID } from '../../contract/page-data.ts';
import {
  isPageRoute,
  isSecretAddress,
  isShopperPage,
  NOT_FOUND_LOCATION,
  noScriptLocation,
  pageAddress,
  serverRenderedLocation,
} from '../../contract/routes.ts';
import type { ShopIdentity } from '../../contract/shop.ts';
import type { PageHead } from '../seo/page-head.ts';
import { escapeHtml, scriptJson } from './html.ts';
import { LRUCache } from 'lru-cache';
import { cachedLoader, countNothing, type Clock } from '../cache/cached-loader.ts';
import { startAppAfterFirstPaint } from './app-start.ts';
import { htmlPage, sendHtml, type HtmlPage } from './page-compression.ts';
import { headTagsFromRender, rememberRenders, type RenderPage } from './server-render.ts';
import type { PageDataEntry, RenderedPage } from '../../contract/page-data.ts';
import { loadRoutePreloads } from './route-preloads.ts';
import { isAdminPage, requireHttps } from './admin-scope.ts';
import type { DevWeb } from './dev-web.ts';
import { allowNonce } from './security-headers.ts';

/** index.html's generic description (src/web/index.html), however the build spreads its attributes. */
const genericDescription = /<meta\s+name="description"[^>]*>/;

function readBuiltPage(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

export const webRoot = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

export interface WebAppOptions {
  /** The shop's identity as this instance knows it now (the owner's settings, re-read within seconds). */
  shop: () => Promise<ShopIdentity>;
  /** The built app's folder; tests point it at a fixture. */
  root?: string;
  /** Head tags and status for a page path and its query (product pages get theirs from the catalogue). */
  pageHead: (path: string, query: URLSearchParams) => Promise<PageHead>;
  /** The shop's public address, for the canonical links of pages drawn on the server. */
  publicUrl: string;
  /**
   * How long this instance reuses a storefront page's whole answer, and a CDN may keep it
   * (PAGE_CACHE_SECONDS); 0 or none: every page is made for its request and marked no-cache.
   */
  pageCacheSeconds?: number;
  /** How the page cache tells age (tests move their own clock on). */
  now?: Clock;
  /** The session cookies' names: a page asked for with one is marked private, whatever it holds. */
  sessionCookies?: string[];
  /** Production serves the back office over HTTPS only. */
  production?: boolean;
  /** Renders a storefront page's HTML on the server (server-render.ts); without it the browser draws every page. */
  renderPage?: RenderPage;
  log?: { warn: (details: object, message: string) => void };
  /**
   * `npm run dev`: the pages come from Vite (dev-web.ts), made afresh for each request and drawn
   * (with its `renderPage`, given as `renderPage`) as the source now stands; nothing is kept, and the
   * built app is not served.
   */
  dev?: Pick<DevWeb, 'page'>;
}

/**
 * Serves the built web app (`npm run build`): hashed assets cached for a year, and index.html for
 * every page route with the shop's identity and the page's head written in, and a 404 status for
 * paths that are no page. Without a build the API still runs and page paths answer with a hint.
 */
/**
 * A storefront page's answer as it is kept: its status, and its HTML (`whole` unless the server
 * meant to draw it and did not, which is then not kept) or where it has moved to.
 */
type PageAnswer =
  | { status: number; page: HtmlPage; whole: boolean; nonce?: string; redirect?: undefined }
  | { status: 301; redirect: string };

/** A page's HTML before the page's own head and body are written in, and the nonce its scripts carry (development). */
interface PageTemplate {
  html: string;
  nonce?: string;
}

/**
 * How much of the storefront's pages one instance keeps, in bytes: the HTML in UTF-8 and its
 * encodings (each well under half of it). An outside attack with a flood of distinct search pages
 * measured what a larger budget costs: 32 MB, counted then from the text, took the server's
 * resident memory up by 100 MB.
 */
const KEPT_PAGES_BYTES = 12_000_000;

/**
 * Registers the web app; what it answers is the same for every shopper, so `forgetPages` is called
 * when the catalogue changes on this instance (a back-office write), as the catalogue's caches are.
 */
export async function registerWebApp(
  app: FastifyInstance,
  options: WebAppOptions,
): Promise<{ forgetPages: () => void }> {
  const root = options.root ?? webRoot;
  const indexPath = `${root}index.html`;
  const { dev } = options;
  const built = !dev && existsSync(indexPath);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      index: false,
      wildcard: false,
      // scripts/compress-dist.ts wrote .br and .gz beside each asset at build time.
      preCompressed: true,
      // The back office's page is answered below (HTTPS only, never cached), not as a plain file.
      allowedPath: (pathName) => !isAdminPage(pathName),
      setHeaders(reply, path) {
        reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }
  const shopScriptOf = (shop: ShopIdentity) =>
    `<script id="${SHOP_CONFIG_ELEMENT_ID}" type="application/json">${scriptJson(shop)}</script>`;
  // (An earlier build's manifest names chunks a page from the source does not use.)
  const preloadsFor = dev ? () => '' : loadRoutePreloads(`${root}.vite/manifest.json`);
  const withShopTitle = (html: string, shop: ShopIdentity) =>
    html.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeHtml(shop.name)}</title>`);
  const withShopScript = (html: string, shop: ShopIdentity) =>
    html.replace('</head>', () => `${shopScriptOf(shop)}</head>`);
  const indexHtml = built ? readFileSync(indexPath, 'utf8') : undefined;
  const shopTemplate = async (shop: ShopIdentity): Promise<PageTemplate | undefined> => {
    if (!dev) return indexHtml === undefined ? undefined : { html: withShopTitle(indexHtml, shop) };
    const page = await dev.page('shop');
    return { html: withShopTitle(page.html, shop), nonce: page.nonce };
  };

  const builtAdminHtml = dev ? undefined : readBuiltPage(`${root}admin/index.html`);
  // The same for every answer while the shop's identity stands: compressed once each way.
  let builtAdminPage: { shop: string; page: HtmlPage } | undefined;
  const adminPage = async (): Promise<{ page: HtmlPage; nonce?: string } | undefined> => {
    const shop = await options.shop();
    if (!dev) {
      if (builtAdminHtml === undefined) return undefined;
      const key = JSON.stringify(shop);
      if (builtAdminPage?.shop !== key)
        builtAdminPage = { shop: key, page: htmlPage(withShopScript(builtAdminHtml, shop)) };
      return { page: builtAdminPage.page };
    }
    const page = await dev.page('admin');
    return { page: htmlPage(withShopScript(page.html, shop)), nonce: page.nonce };
  };
  const httpsOnly = requireHttps(options.production ?? false);

  // A page asked for again with the same data is the HTML already drawn (server-render.ts).
  // (Not in development, where the same data drawn again may meet changed code.)
  const { renderPage } = options;
  const render = !renderPage
    ? undefined
    : dev
      ? (location: string, pageData: PageDataEntry[], _dataJson: string, shop: ShopIdentity) =>
          renderPage(location, pageData, shop)
      : rememberRenders(renderPage);

  /** The page drawn on the server, or nothing (the browser draws it) should rendering fail. */
  async function rendered(
    url: string,
    page: PageHead,
    dataJson: string,
    shop: ShopIdentity,
  ): Promise<RenderedPage | undefined> {
    if (!render) return undefined;
    try {
      return await render(url, page.data, dataJson, shop);
    } catch (error) {
      options.log?.warn({ err: error, url }, 'page not rendered on the server');
      return undefined;
    }
  }

  /** A page's answer for its address (pageAddress), or for every path that is no page. */
  async function answerFor(address: string): Promise<PageAnswer> {
    const queryAt = address.indexOf('?');
    const pagePath = queryAt < 0 ? address : address.slice(0, queryAt);
    const query = new URLSearchParams(queryAt < 0 ? '' : address.slice(queryAt + 1));
    // A path that is no page is the 404 page, with the data every page's menus and footer draw.
    const page: PageHead = isPageRoute(pagePath)
      ? await options.pageHead(pagePath, query)
      : { ...(await options.pageHead(NOT_FOUND_LOCATION, query)), status: 404 };
    if (page.redirect !== undefined) return { status: 301, redirect: page.redirect };
    const shop = await options.shop();
    const template = await shopTemplate(shop);
    if (!template) return { status: page.status, page: htmlPage(''), whole: false };
    const dataJson = scriptJson(page.data);
    const pageData =
      page.data.length > 0 ? `<script id="${PAGE_DATA_ELEMENT_ID}" type="application/json">${dataJson}</script>` : '';
    const location = serverRenderedLocation(pagePath, page.status, query);
    const drawn = location ? await rendered(location, page, dataJson, shop) : undefined;
    // The 404 page for a browser without scripts, where the app draws something else (noScriptLocation).
    const fallback = location ? undefined : noScriptLocation(pagePath, page.status);
    const drawnWithoutScripts = fallback ? await rendered(fallback, page, dataJson, shop) : undefined;
    const drawnHead = (drawn ?? drawnWithoutScripts)?.head;
    const tags =
      page.tags +
      (drawnHead === undefined ? '' : headTagsFromRender(drawnHead, page.tags, options.publicUrl)) +
      // A path that is no page is drawn as the 404 page: its code and styles come with it.
      preloadsFor(isPageRoute(pagePath) ? pagePath : NOT_FOUND_LOCATION) +
      (drawnWithoutScripts ? preloadsFor(NOT_FOUND_LOCATION) : '') +
      pageData;
    // The page's own title and description replace the default ones rather than standing beside
    // them: a search engine reads the first description it meets (issue 31). (Replaced by
    // functions: a string would read `$&`, `$'` and the like in catalogue text as patterns.)
    let ownHead = template.html;
    if (tags.includes('<title')) ownHead = ownHead.replace(/<title>[^<]*<\/title>/, '');
    if (/<meta\b[^>]*\bname="description"/.test(tags)) {
      // Kept for the app without its name, which no crawler reads: the pages the app draws next
      // without a description of their own show it (main.tsx).
      ownHead = ownHead.replace(genericDescription, (tag) =>
        tag.replace(/\bname="description"/, 'data-generic-description'),
      );
    }
    const withHead = ownHead.replace('</head>', () => `${tags}${shopScriptOf(shop)}</head>`);
    const html = drawn
      ? startAppAfterFirstPaint(withHead.replace('<div id="root"></div>', () => `<div id="root">${drawn.body}</div>`))
      : drawnWithoutScripts
        ? withHead.replace(
            '<div id="root"></div>',
            () => `<div id="root"></div><noscript>${drawnWithoutScripts.body}</noscript>`,
          )
        : withHead;
    // A page served without its data, or one the server meant to draw and did not (a render given
    // up, or too many at once), is kept by no cache: the next shopper gets it whole.
    const meant = location ?? fallback;
    const whole =
      !page.dataMissing &&
      (meant === undefined || render === undefined || (drawn ?? drawnWithoutScripts) !== undefined);
    return {
      status: page.status,
      page: htmlPage(html),
      whole,
      ...(template.nonce === undefined ? {} : { nonce: template.nonce }),
    };
  }

  // Every shopper is sent the same page for an address (nothing of a basket or an account is drawn
  // on the server), so each instance keeps its answers for a few seconds, refreshed in the
  // background as the catalogue's are, and a CDN may keep them as long.
  const pageCacheSeconds = dev ? 0 : (options.pageCacheSeconds ?? 0);
  // A page is kept from the second time it is asked for: a flood of addresses each asked for once
  // (distinct search words, say) is answered and never kept, so it takes no room from the pages
  // shoppers do ask for again (an outside attack measured 100 MB more resident memory otherwise).
  // (Kept by a digest: an address may be as long as a request line.)
  const askedOnce = new LRUCache<string, true>({ max: 10_000 });
  const askedBefore = (address: string) => {
    const digest = hash('sha256', address, 'base64');
    if (askedOnce.has(digest)) return true;
    askedOnce.set(digest, true);
    return false;
  };
  const pages = cachedLoader(
    pageCacheSeconds,
    {
      maxSize: KEPT_PAGES_BYTES,
      sizeOf: (answer) => (answer.redirect === undefined ? 2 * answer.page.html.length : 1),
      keeps: (answer, address) =>
        (answer.redirect !== undefined || answer.whole) && !isSecretAddress(address) && askedBefore(address),
    },
    answerFor,
    countNothing,
    options.now,
  );
  const sessionCookies = options.sessionCookies ?? [];
  const sharedCacheControl = `public, max-age=0, s-maxage=${pageCacheSeconds}, stale-while-revalidate=${pageCacheSeconds}`;

  app.setNotFoundHandler(async (request, reply) => {
    // The path and query as asked for: without a fragment (which browsers never send, and a CDN
    // may leave out of its key) and without the scheme and host of a request line that names the
    // whole address (HTTP/1.1 servers must take that form; the router does for the API).
    const asked = request.url.replace(/#.*$/s, '').replace(/^[a-z][a-z\d+.-]*:\/\/[^/?]*/i, '') || '/';
    const path = asked.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (!wantsPage) {
      return reply
        .status(404)
        .send({ error: { code: errorCodes.notFound, message: `No such address: ${request.method} ${path}` } });
    }
    if (isAdminPage(path)) {
      // The back office is its own app (src/web/admin): never cached, never indexed.
      // Not `await`ed: a reply is thenable, so awaiting one gives undefined (found by an outside attack:
      // the page was built and sent again after the refusal, logging an error each time).
      if (httpsOnly.refuses(request)) return httpsOnly.refusal(reply);
      const admin = await adminPage();
      if (!admin) {
        return reply.status(404).type('text/plain').send('The back office is not built yet: run `npm run build`.');
      }
      if (admin.nonce !== undefined) allowNonce(reply, admin.nonce);
      return sendHtml(
        request,
        reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow'),
        admin.page,
      );
    }
    const query = new URLSearchParams(asked.slice(path.length + 1));
    // `/products/tabla/` is `/products/tabla`, as the app's router takes it.
    const answer = await pages.get(isPageRoute(path) ? pageAddress(path, query) : NOT_FOUND_LOCATION);
    if (answer.redirect !== undefined) {
      // Not kept by browsers without asking again: the key may be given back to the product later.
      const search = query.size > 0 ? `?${query}` : '';
      return reply.header('cache-control', 'no-cache').redirect(`${answer.redirect}${search}`, 301);
    }
    if (!built && !dev) {
      return reply.status(answer.status).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    if (answer.nonce !== undefined) allowNonce(reply, answer.nonce);
    // Only a page that is there is kept by a CDN, and never one asked for with a session: a shared
    // cache must not learn who is signed in, or keep an answer a signed-in browser was sent.
    const signedIn = sessionCookies.some((name) => request.cookies[name] !== undefined);
    // A shopper's own page may carry a secret in its query (PayPal's return to /checkout-confirm
    // echoes the order's code), so none is kept by a shared cache either.
    const cacheControl =
      isSecretAddress(path) || isShopperPage(path)
        ? 'private, no-store'
        : signedIn
          ? 'private, no-cache'
          : answer.whole && answer.status === 200 && pageCacheSeconds > 0
            ? sharedCacheControl
            : 'no-cache';
    return sendHtml(request, reply.status(answer.status).header('cache-control', cacheControl), answer.page);
  });
  return { forgetPages: pages.clear };
}
