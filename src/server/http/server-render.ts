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

/** How much rendered HTML an instance keeps (characters), whatever the number of pages. */
const KEPT_HTML_CHARS = 8_000_000;

/**
 * The renderer, remembering what it drew: a page's HTML depends only on its address, the data
 * written into it and the shop's identity (one per instance), so a page asked for again with the
 * same data is the same HTML, and is not drawn again. When the catalogue changes, the data changes,
 * and the page is drawn afresh: nothing is ever older than the data beside it. Pages drawn at once
 * for the same address and data share one render.
 */
export function rememberRenders(render: RenderPage): RenderPage {
  const kept = new LRUCache<string, string>({
    maxSize: KEPT_HTML_CHARS,
    sizeCalculation: (html, key) => html.length + key.length,
  });
  const rendering = new Map<string, Promise<string>>();
  return (url, pageData, shop) => {
    const key = `${url}\n${hash('sha256', JSON.stringify(pageData), 'base64')}`;
    const html = kept.get(key);
    if (html !== undefined) return Promise.resolve(html);
    let pending = rendering.get(key);
    if (!pending) {
      pending = render(url, pageData, shop)
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
