import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { FastifyServerFactory } from 'fastify';
import type { ViteDevServer } from 'vite';
import type { RenderPage } from './server-render.ts';

/**
 * `npm run dev` (WEB_DEV_SERVER=true): the shop's server hosts Vite's development server in
 * middleware mode (docs/decisions/0021-server-rendering.md), so one process on one port answers the
 * API, the sandboxes, the inbox and the pages, and the pages are drawn on the server as in
 * production, from the source: Vite loads the server's renderer (src/web/entry-server.tsx) and
 * reloads what changed, and the browser's code is Vite's, with hot reload over the same port.
 * Vite is a development dependency: this file is imported only when the setting is on.
 */

/** Where the shop's Vite configuration is (the project's root). */
const projectConfig = fileURLToPath(new URL('../../../vite.config.ts', import.meta.url));

/**
 * The stand-in Vite writes into every script and style tag it adds (`html.cspNonce`); each page
 * replaces it with a nonce of its own, which its Content-Security-Policy names, so the inline
 * React Refresh preamble and the styles Vite's client adds are allowed and nothing else inline is.
 */
const NONCE_STAND_IN = 'dev-nonce-stand-in';

export interface DevWebOptions {
  /** The Vite configuration file; tests give a small app of their own. */
  configFile?: string;
}

export interface DevWeb {
  /**
   * The shop's or the back office's page (index.html) as Vite makes it for the browser (its client,
   * React Refresh), with a nonce of its own: the page's text and the nonce its policy must name.
   */
  page: (app: 'shop' | 'admin') => Promise<{ html: string; nonce: string }>;
  /** The storefront's renderer, loaded through Vite: a change to its code shows on the next page. */
  renderPage: RenderPage;
}

/**
 * Hosts Vite in the shop's own HTTP server: `serverFactory` goes to Fastify, which makes its server
 * with it; `start` then starts Vite on that server. Until then, and for whatever Vite does not
 * answer (every address but its modules and public files), requests go to Fastify.
 */
export function hostVite(options: DevWebOptions = {}): {
  serverFactory: FastifyServerFactory;
  start: (server: Server) => Promise<DevWeb & { close: () => Promise<void> }>;
} {
  let vite: ViteDevServer | undefined;
  const serverFactory: FastifyServerFactory = (handler, fastifyOptions) => {
    const server = createHttpServer(fastifyOptions.http ?? {}, (request: IncomingMessage, response: ServerResponse) => {
      if (!vite) return handler(request, response);
      // (A module that does not compile is logged and shown in the browser's overlay by Vite, which
      // then hands the request on, in middleware mode, with no error.)
      vite.middlewares(request, response, () => handler(request, response));
    });
    // What Fastify sets on the server it makes itself (app.ts gives the values).
    const { requestTimeout, keepAliveTimeout, connectionTimeout } = fastifyOptions;
    if (typeof requestTimeout === 'number') server.requestTimeout = requestTimeout;
    if (typeof keepAliveTimeout === 'number') server.keepAliveTimeout = keepAliveTimeout;
    if (typeof connectionTimeout === 'number') server.setTimeout(connectionTimeout);
    return server;
  };

  async function start(server: Server) {
    const { createServer } = await import('vite');
    const configFile = options.configFile ?? projectConfig;
    vite = await createServer({
      configFile,
      // Imported as Node imports the server's own code: bundled to a temporary file, as Vite
      // does by default, it made `node --watch` restart the server as soon as it had started.
      configLoader: 'native',
      // Vite answers its own addresses and hands every other to the shop (appType 'custom': no
      // index.html fallback of its own), and its hot-reload socket shares the shop's port.
      appType: 'custom',
      server: { middlewareMode: true, hmr: { server } },
      html: { cspNonce: NONCE_STAND_IN },
      clearScreen: false,
    });
    const root = vite.config.root;
    const running = vite;

    const page = async (app: 'shop' | 'admin') => {
      const folder = app === 'shop' ? '' : '/admin';
      const file = `${folder}/index.html`;
      // Its relative addresses (./main.tsx) made absolute: the page is served at every address.
      const source = (await readFile(`${root}${file}`, 'utf8')).replace(
        /\b(src|href)="\.\//g,
        (_, attribute: string) => `${attribute}="${folder}/`,
      );
      const nonce = randomBytes(16).toString('base64');
      const html = (await running.transformIndexHtml(file, source)).replaceAll(NONCE_STAND_IN, nonce);
      return { html, nonce };
    };

    const renderPage: RenderPage = async (url, pageData, shop) => {
      const entry = (await running.ssrLoadModule('/entry-server.tsx')) as { renderPage: RenderPage };
      try {
        return await entry.renderPage(url, pageData, shop);
      } catch (error) {
        // Vite's stack traces point at the source, not at its transformed code.
        if (error instanceof Error) running.ssrFixStacktrace(error);
        throw error;
      }
    };

    return { page, renderPage, close: () => running.close() };
  }

  return { serverFactory, start };
}
