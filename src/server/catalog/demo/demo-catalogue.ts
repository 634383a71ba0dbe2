import type { Db } from '../../db/database.ts';
import { seedIfEmpty, type SeedData, type SeedResult } from '../../db/seed/seed.ts';
import {
  demoBrands,
  demoCountries,
  demoDeliveryMethods,
  demoTitles,
  demoTypes,
  demoVouchers,
} from './catalogue-data.ts';
import { DEMO_PRODUCT_COUNT, generateProduct } from './generate-products.ts';

/** The demo catalogue as the seed writes it: its reference data, delivery, vouchers and products. */
export const demoCatalogue: SeedData = {
  types: demoTypes,
  brands: demoBrands,
  countries: demoCountries,
  titles: demoTitles,
  deliveryMethods: demoDeliveryMethods,
  vouchers: demoVouchers,
  productCount: DEMO_PRODUCT_COUNT,
  product: generateProduct,
};

/**
 * Seeds the demo catalogue into an empty database (start-up with SEED_DEMO, npm run db:seed,
 * tests and benchmarks); `products` above the demo count generates a larger one for benchmarks.
 */
export function seedDemoCatalogue(db: Db, options: { products?: number } = {}): Promise<SeedResult> {
  return seedIfEmpty(db, demoCatalogue, options);
}
