import Fastify, { type FastifyInstance } from 'fastify';
import { createCatalogRepository } from './catalog/catalog.repository.ts';
import { catalogRoutes } from './catalog/catalog.routes.ts';
import { createCatalogService } from './catalog/catalog.service.ts';
import { productImageRoutes } from './catalog/images/image.routes.ts';
import type { Config } from './config.ts';
import type { Db } from './db/database.ts';
import { registerErrorHandling } from './http/errors.ts';
import { registerWebApp } from './http/web-app.ts';
import { registerZod } from './http/zod.ts';

export interface AppDeps {
  config: Config;
  db: Db;
}

/** The whole HTTP application without a listening socket: tests drive it with app.inject(). */
export async function buildApp({ config, db }: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: config.logLevel },
    bodyLimit: 256 * 1024,
    // JSON bodies with these keys are rejected instead of reaching a service.
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
  });
  registerZod(app, config.env !== 'production');
  // The API speaks JSON only; a text body is refused with a 415 rather than half-understood.
  app.removeContentTypeParser('text/plain');
  registerErrorHandling(app);

  const catalog = createCatalogService(createCatalogRepository(db.kysely, db.dialect), {
    searchCacheSeconds: config.searchCacheSeconds,
  });
  await app.register(catalogRoutes, { prefix: '/api', catalog });
  await app.register(productImageRoutes);
  await registerWebApp(app);
  return app;
}
