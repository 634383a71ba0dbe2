import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { Clock } from '../cache/cached-loader.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { MetricsHooks } from '../metrics/metrics.ts';
import { createCatalogRepository } from './catalog.repository.ts';
import { catalogRoutes } from './catalog.routes.ts';
import { createCatalogService, type CatalogService } from './catalog.service.ts';
import { productImageRoutes } from './images/image.routes.ts';
import { photoFileRoutes } from './photos/photo-files.routes.ts';
import type { PhotoStore } from './photos/photo-store.ts';
import { createSearchEngine, type SearchEngine } from './search-engine/search-engine.ts';
import { createSearchEngineRepository } from './search-engine/search-engine.repository.ts';

/**
 * This instance's search index (docs/decisions/0026-one-search-engine.md): its build starts when
 * the app is ready and stops when it closes. Registered on the app itself, before the features:
 * /readyz waits for it, and it starts before the other start-up work (planner statistics).
 */
export function startSearchEngine(
  app: FastifyInstance,
  db: Db,
  config: Pick<Config, 'searchIndexLagMs'>,
): SearchEngine {
  const searchEngine = createSearchEngine(createSearchEngineRepository(db.kysely), {
    maxLagMs: config.searchIndexLagMs,
    onError: (error) => app.log.error({ err: error }, 'search index not built'),
    // A database in memory is this connection's alone: another process could not open it.
    ...(db.reopen.url === 'sqlite::memory:' ? {} : { separateBuild: { connection: db.reopen } }),
  });
  app.addHook('onReady', async () => searchEngine.start());
  app.addHook('onClose', async () => searchEngine.stop());
  return searchEngine;
}

/** The storefront's catalogue, which the pages (seo) and the back office's writes use too. */
export function createShopCatalog(
  db: Db,
  searchEngine: SearchEngine,
  options: {
    config: Pick<Config, 'searchCacheSeconds' | 'catalogCacheSeconds'>;
    metrics: MetricsHooks | undefined;
    now: Clock | undefined;
  },
): CatalogService {
  const { config, metrics, now } = options;
  return createCatalogService(
    createCatalogRepository(db.kysely),
    {
      searchCacheSeconds: config.searchCacheSeconds,
      catalogCacheSeconds: config.catalogCacheSeconds,
      // One at a time on either database (ADR 0017): on PostgreSQL four at once overlapped their
      // round trips, but queued a product page's reads behind theirs (p99 77 to 80 ms under a
      // closed loop of searches, 37 to 47 with one at a time), for no steadier search.
      searchesAtOnce: 1,
      ...(now ? { now } : {}),
      ...(metrics ? { countLookups: metrics.cacheLookups } : {}),
    },
    searchEngine,
  );
}

export interface CatalogFeatureOptions {
  catalog: CatalogService;
  /** Where product photos are kept; the back office writes them (photos.admin-routes.ts). */
  photoStore: PhotoStore;
}

/** The catalogue as shoppers see it: search, products, reference data, product images and photos. */
export const catalogFeature: FastifyPluginAsync<CatalogFeatureOptions> = async (app, { catalog, photoStore }) => {
  await app.register(catalogRoutes, { prefix: '/api', catalog });
  await app.register(productImageRoutes);
  await app.register(photoFileRoutes, { store: photoStore });
};
