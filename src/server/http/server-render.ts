import { hash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LRUCache } from 'lru-cache';
import type { PageDataEntry, RenderedPage } from '../../contract/page-data.ts';
import type { ShopIdentity } from '../../contract/shop.ts';

/**
 * The storefront's pages rendered on the server (docs/decisions/0021-server-rendering.md) by the
 * build's dist/ssr/entry-server.js (src/web/entry-server.tsx): the page's HTML for inside #root,
 * drawn with the data the server writes into the page.
 */
export type RenderPage = (url: string, pageData: PageDataEntry[], shop: ShopIdentity) => Promise<RenderedPage>;

export const serverRenderEntry = fileURLToPath(new URL('../../../dist/ssr/entry-server.js', import.meta.url));

/** The built renderer, or undefined without a build (the pages are then drawn in the browser alone). */
export async function loadPageRenderer(entry = serverRenderEntry): Promise<RenderPage | undefined> {
  if (!existsSync(entry)) return undefined;
  const built = (await import(pathToFileURL(entry).href)) as { renderPage: RenderPage };
  return built.renderPage;
}

/** How much rendered HTML an instance keeps, in bytes (two a character, as V8 may keep them). */
const KEPT_HTML_BYTES = 16_000_000;
/** Pages drawn at once; beyond it a page not drawn yet is left to the browser, so a flood costs little. */
const RENDERS_AT_ONCE = 4;

/**
 * The renderer, remembering what it drew: a page's HTML depends only on where it is drawn from, the
 * data written into it, the shop's identity (one per instance) and the year (the footer's
 * copyright), so a page asked for again with the same data is the same HTML, and is not drawn
 * again. When the catalogue changes, the data changes, and the page is drawn afresh: nothing is
 * ever older than the data beside it. Pages drawn at once for the same address and data share one
 * render, and while RENDERS_AT_ONCE others are being drawn a new one is not (the browser draws it).
 */
export function rememberRenders(
  render: RenderPage,
): (
  location: string,
  pageData: PageDataEntry[],
  dataJson: string,
  shop: ShopIdentity,
) => Promise<RenderedPage | undefined> {
  const kept = new LRUCache<string, RenderedPage>({
    maxSize: KEPT_HTML_BYTES,
    sizeCalculation: (page, key) => 2 * (page.body.length + page.head.length + key.length),
  });
  const rendering = new Map<string, Promise<RenderedPage>>();
  // `dataJson` is the page data as the page carries it, serialised once for both.
  return (location, pageData, dataJson, shop) => {
    const key = `${location}\n${new Date().getFullYear()}\n${hash('sha256', dataJson + JSON.stringify(shop), 'base64')}`;
    const html = kept.get(key);
    if (html !== undefined) return Promise.resolve(html);
    let pending = rendering.get(key);
    if (!pending) {
      if (rendering.size >= RENDERS_AT_ONCE) return Promise.resolve(undefined);
      pending = render(location, pageData, shop)
        .then((drawn) => {
          kept.set(key, drawn);
          return drawn;
        })
        .finally(() => rendering.delete(key));
      rendering.set(key, pending);
    }
    return pending;
  };
}

/** The tags of a page's own head that React writes (page-meta.tsx), each with how to tell the server's own. */
const ownHeadTags = [
  { drawn: /<title>[^<]*<\/title>/, serverHas: '<title' },
  { drawn: /<meta name="description"[^>]*>/, serverHas: 'name="description"' },
  { drawn: /<link rel="canonical"[^>]*>/, serverHas: 'rel="canonical"' },
];

/**
 * What of the head React drew for a page goes into the page the server sends: its title, description
 * and canonical link, where the server's own head tags (page-head.ts: a product's, a keyword
 * search's) have none, so a browser without JavaScript, or a crawler, reads the page's own title.
 * Each is marked as the server's, which the app replaces with its own when it runs (main.tsx), and
 * a canonical link gets the shop's public address (React, on the server, knows only the path).
 */
export function headTagsFromRender(drawnHead: string, serverTags: string, publicUrl: string): string {
  return ownHeadTags
    .map(({ drawn, serverHas }) => {
      const tag = drawn.exec(drawnHead)?.[0];
      if (!tag || serverTags.includes(serverHas)) return '';
      return tag
        .replace(/^<(\w+)/, (_, name: string) => `<${name} data-server-head`)
        .replace(/ href="\//, () => ` href="${publicUrl}/`);
    })
    .join('');
}
