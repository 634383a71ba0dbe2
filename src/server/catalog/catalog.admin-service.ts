import type { CatalogueChangeOptions, Db } from './catalogue-changes.ts';
import { createProductsAdminService } from './products.admin-service.ts';
import { createTaxonomyAdminService } from './taxonomy.admin-service.ts';

/**
 * The catalogue in the back office (docs/back-office.md#catalogue), as its routes call it: products
 * with their sizes (products.admin-service.ts), and product types and brands
 * (taxonomy.admin-service.ts). Every change is one transaction with its audit entry, after which
 * this instance's catalogue and search caches are cleared (catalogue-changes.ts; ADR 0010).
 */
export function createCatalogAdminService(db: Db, options: CatalogueChangeOptions) {
  return { ...createProductsAdminService(db, options), ...createTaxonomyAdminService(db, options) };
}

export type CatalogAdminService = ReturnType<typeof createCatalogAdminService>;
