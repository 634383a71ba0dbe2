import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { errorCodes } from '../../contract/errors.ts';
import { isPageRoute } from '../../contract/routes.ts';

export const webRoot = fileURLToPath(new URL('../../../dist/web/', import.meta.url));

/**
 * Serves the built web app (`npm run build`): hashed assets cached for a year, and index.html for
 * every page route, with a 404 status for paths that are no page. Without a build the API still
 * runs and page paths answer with a hint.
 */
export async function registerWebApp(app: FastifyInstance): Promise<void> {
  const indexPath = `${webRoot}index.html`;
  const built = existsSync(indexPath);
  if (built) {
    await app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      wildcard: false,
      setHeaders(res, path) {
        res.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
      },
    });
  }
  const indexHtml = built ? readFileSync(indexPath, 'utf8') : undefined;

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !path.startsWith('/api/');
    if (!wantsPage) {
      return reply
        .status(404)
        .send({ error: { code: errorCodes.notFound, message: `No such address: ${request.method} ${path}` } });
    }
    const status = isPageRoute(path) ? 200 : 404;
    if (!indexHtml) {
      return reply.status(status).type('text/plain').send('The web app is not built yet: run `npm run build`.');
    }
    return reply.status(status).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
