import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerender } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { PageDataEntry, RenderedPage } from '../contract/page-data.ts';
import type { ShopIdentity } from '../contract/shop.ts';
import { AppRoutes } from './app/router.tsx';
import { queryDefaults } from './app/query-defaults.ts';
import { setServerShopIdentity } from './lib/shop.ts';
import { MessageModalProvider } from './ui/message-modal/message-modal.tsx';

/**
 * The storefront rendered on the server (docs/decisions/0021-server-rendering.md): the same route
 * table as the browser's (app.tsx), with the query cache holding the page data the server writes
 * into the page (ADR 0019), so the HTML is the page the browser then hydrates. Everything is awaited
 * (lazy pages too) before the HTML is returned; what a page has no data for on the server it draws
 * as it does in the browser while it asks (a loading state), and the browser fills it in.
 *
 * Built by `vite build --ssr` into dist/ssr, loaded by the server (src/server/http/server-render.ts).
 */
/** A render taking longer than this is given up (the browser draws the page). */
const RENDER_TIMEOUT_MS = 2_000;

export async function renderPage(
  url: string,
  pageData: PageDataEntry[],
  shopIdentity: ShopIdentity,
): Promise<RenderedPage> {
  setServerShopIdentity(shopIdentity);
  const client = new QueryClient({ defaultOptions: { queries: queryDefaults } });
  for (const entry of pageData) client.setQueryData(entry.key, entry.data);
  // A whole document, so React puts the page's <title> and <meta> in a <head> of its own, which is
  // returned apart: the server takes from it what its own head (page-head.ts) lacks. (No <head> here: a second child beside <body> would change every useId the app
  // makes, and the browser, hydrating #root alone, would make others.)
  const errors: unknown[] = [];
  const { prelude } = await prerender(
    <html lang="en">
      <body>
        <div id="root">
          <StrictMode>
            <QueryClientProvider client={client}>
              <MessageModalProvider>
                <StaticRouter location={url}>
                  <AppRoutes />
                </StaticRouter>
              </MessageModalProvider>
            </QueryClientProvider>
          </StrictMode>
        </div>
      </body>
    </html>,
    // Every part inline, in order: React would otherwise send a large part after the rest, hidden,
    // with a script to show it, and a browser without JavaScript (or a crawler) would never see it.
    {
      progressiveChunkSize: Number.MAX_SAFE_INTEGER,
      // A page that cannot be drawn whole, or in time, is drawn by the browser instead.
      signal: AbortSignal.timeout(RENDER_TIMEOUT_MS),
      onError: (error) => void errors.push(error),
    },
  );
  if (errors.length > 0) throw errors[0];
  const html = await new Response(prelude).text();
  const start = html.indexOf('<div id="root">') + '<div id="root">'.length;
  const end = html.lastIndexOf('</div></body>');
  const head = /<head>(.*?)<\/head>/s.exec(html)?.[1] ?? '';
  if (start < '<div id="root">'.length || end < start || html.includes('<script')) {
    throw new Error(`the page ${url} did not render whole`);
  }
  return { body: html.slice(start, end), head };
}
