import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import { catalogAdminRoutes } from './catalog.admin-routes.ts';
import { createCatalogAdminService } from './catalog.admin-service.ts';
import type { PhotosAdminService } from './photos/photos.admin-service.ts';
import { photosAdminRoutes } from './photos/photos.admin-routes.ts';
import { productsCsvAdminRoutes } from './products-csv.admin-routes.ts';
import { createProductsCsvService } from './products-csv.admin-service.ts';
import type { SearchEngine } from './search-engine/search-engine.ts';
import { stockAdminRoutes } from './stock.admin-routes.ts';
import { createStockAdminService } from './stock.admin-service.ts';

export interface CatalogAdminFeatureOptions {
  db: Db;
  guard: StaffGuard;
  lowStockThreshold: number;
  /** Finds the products a stock search names, as the shop's search does. */
  searchEngine: SearchEngine;
  /** Made with the shop's photo store (catalog.feature.ts serves the photos). */
  photos: PhotosAdminService;
  /**
   * Told after every write: this instance's catalogue and search caches, and its pages, forget
   * what they kept (ADR 0010).
   */
  catalogueChanged: () => void;
}

/** Stock, products, types and brands, photos and the products CSV (docs/back-office.md#catalogue). */
export const catalogAdminFeature: FastifyPluginAsync<CatalogAdminFeatureOptions> = async (app, options) => {
  const { db, guard, catalogueChanged } = options;
  await app.register(stockAdminRoutes, {
    guard,
    stock: createStockAdminService(db.kysely, {
      lowStockThreshold: options.lowStockThreshold,
      onChange: catalogueChanged,
      matchingIds: options.searchEngine.matchingIds,
    }),
  });
  await app.register(catalogAdminRoutes, {
    guard,
    catalog: createCatalogAdminService(db.kysely, { onChange: catalogueChanged }),
  });
  await app.register(photosAdminRoutes, { guard, photos: options.photos });
  await app.register(productsCsvAdminRoutes, {
    guard,
    csv: createProductsCsvService(db.kysely, { onChange: catalogueChanged }),
  });
};
