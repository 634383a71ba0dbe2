import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
