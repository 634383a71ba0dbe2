import { hash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LRUCache } from 'lru-cache';
import type { PageDataEntry } from '../../contract/page-data.ts';
import type { ShopIdentity } from '../../contract/shop.ts';

/**
 * The storefront's pages rendered on the server (docs/decisions/0021-server-rendering.md) by the
 * build's dist/ssr/entry-server.js (src/web/entry-server.tsx): the page's HTML for inside #root,
 * drawn with the data the server writes into the page.
 */
export type RenderPage = (url: string, pageData: PageDataEntry[], shop: ShopIdentity) => Promise<string>;

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
): (location: string, pageData: PageDataEntry[], dataJson: string, shop: ShopIdentity) => Promise<string> {
  const kept = new LRUCache<string, string>({
    maxSize: KEPT_HTML_BYTES,
    sizeCalculation: (html, key) => 2 * (html.length + key.length),
  });
  const rendering = new Map<string, Promise<string>>();
  // `dataJson` is the page data as the page carries it, serialised once for both.
  return (location, pageData, dataJson, shop) => {
    const key = `${location}\n${new Date().getFullYear()}\n${hash('sha256', dataJson, 'base64')}`;
    const html = kept.get(key);
    if (html !== undefined) return Promise.resolve(html);
    let pending = rendering.get(key);
    if (!pending) {
      if (rendering.size >= RENDERS_AT_ONCE) return Promise.resolve('');
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
