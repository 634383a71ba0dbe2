import { sql, type Kysely, type Transaction } from 'kysely';
import type { Db } from '../database.ts';
import type { Database } from '../schema.ts';

const PG_SEED_LOCK = 73_112_025;
const BATCH = 500;

export interface SeedStock {
  sizeName: string;
  price: number;
  priceReduction: number;
  priceWithoutDiscount: number;
  stock: number;
  /** What one unit weighs, for shipping labels (migration 0037). */
  weightGrams?: number;
}

export interface SeedProduct {
  urlKey: string;
  title: string;
  brandId: number;
  typeId: number;
  description: string;
  seoTitle: string;
  seoKeywords: string;
  seoDescription: string;
  /** The words staff would type as its search tags. */
  tags: string;
  /** Those tags with the type's and brand's names, as the server indexes them (catalog/search-index.ts). */
  searchTags: string;
  searchText: string;
  images: string[];
  stocks: SeedStock[];
}

/**
 * What a seed writes. The database layer has no catalogue of its own: the demo catalogue
 * (src/server/catalog/demo/demo-catalogue.ts) is handed in by whoever seeds.
 */
export interface SeedData {
  types: ReadonlyArray<{ id: number; name: string; parentId: number }>;
  brands: ReadonlyArray<{ id: number; name: string }>;
  countries: ReadonlyArray<{ id: number; name: string; isoCode: string }>;
  titles: ReadonlyArray<{ id: number; name: string }>;
  deliveryMethods: ReadonlyArray<{
    id: number;
    countryId: number;
    name: string;
    rate: number;
    minItemsTotal: number | null;
    maxItemsTotal: number | null;
    /** The carrier service its labels are bought for (contract/admin/shipping.ts), and the package format. */
    carrierService?: string;
    packageFormat?: string;
  }>;
  vouchers: ReadonlyArray<{
    code: string;
    kind: 'percent' | 'fixed';
    amount: number;
    minSpend: number;
    validFrom: string;
    validTo: string;
  }>;
  /** How many products a seed writes when not asked for a number. */
  productCount: number;
  /** Product number `index`, the same on every run. */
  product(index: number): SeedProduct;
}

export interface SeedResult {
  seeded: boolean;
  products: number;
}

/**
 * Seeds a catalogue (the demo one, in practice) into an empty database (no product types yet), in one transaction
 * under a lock, so two instances starting together seed it once. `products` above the demo count
 * generates a larger catalogue for benchmarks.
 */
export async function seedIfEmpty(db: Db, data: SeedData, options: { products?: number } = {}): Promise<SeedResult> {
  const products = options.products ?? data.productCount;
  return db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PG_SEED_LOCK})`.execute(trx);
    const existing = await trx.selectFrom('product_types').select('id').limit(1).executeTakeFirst();
    if (!existing) {
      await insertReferenceData(trx, data);
      await insertProducts(trx, data, products);
    }
    // Added by a later migration: seeded into a database that already had its catalogue too.
    await insertDeliveryAndVouchers(trx, data);
    return existing ? { seeded: false, products: 0 } : { seeded: true, products };
  });
}

async function insertReferenceData(trx: Transaction<Database>, data: SeedData): Promise<void> {
  await trx
    .insertInto('product_types')
    .values(data.types.map((t, i) => ({ id: t.id, name: t.name, parent_id: t.parentId, sort_order: i })))
    .execute();
  await trx
    .insertInto('brands')
    .values(data.brands.map((b) => ({ id: b.id, name: b.name })))
    .execute();
  await trx
    .insertInto('countries')
    .values(data.countries.map((c) => ({ id: c.id, name: c.name, iso_code: c.isoCode })))
    .execute();
  // Migration 0021 puts the spec's titles in every database; the seed's own are added beside them.
  await trx
    .insertInto('titles')
    .values(data.titles.map((t, i) => ({ id: t.id, name: t.name, sort_order: i })))
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
}

async function insertProducts(trx: Kysely<Database>, data: SeedData, count: number): Promise<void> {
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => data.product(start + i));
    const inserted = await trx
      .insertInto('products')
      .values(
        batch.map((p) => ({
          url_key: p.urlKey,
          title: p.title,
          brand_id: p.brandId,
          product_type_id: p.typeId,
          description: p.description,
          seo_title: p.seoTitle,
          seo_keywords: p.seoKeywords,
          seo_description: p.seoDescription,
          tags: p.tags,
          search_tags: p.searchTags,
          search_text: p.searchText,
        })),
      )
      .returning(['id', 'url_key'])
      .execute();
    const idByKey = new Map(inserted.map((row) => [row.url_key, row.id]));
    const stocks = batch.flatMap((p) =>
      p.stocks.map((s, i) => ({
        product_id: idByKey.get(p.urlKey) as number,
        size_name: s.sizeName,
        price: s.price,
        price_reduction: s.priceReduction,
        price_without_discount: s.priceWithoutDiscount,
        stock: s.stock,
        sort_order: i,
        weight_grams: s.weightGrams ?? null,
      })),
    );
    const images = batch.flatMap((p) =>
      p.images.map((url, i) => ({ product_id: idByKey.get(p.urlKey) as number, image_url: url, sort_order: i })),
    );
    for (let i = 0; i < stocks.length; i += BATCH) {
      await trx
        .insertInto('product_stocks')
        .values(stocks.slice(i, i + BATCH))
        .execute();
    }
    for (let i = 0; i < images.length; i += BATCH) {
      await trx
        .insertInto('product_images')
        .values(images.slice(i, i + BATCH))
        .execute();
    }
  }
}

async function insertDeliveryAndVouchers(trx: Transaction<Database>, data: SeedData): Promise<void> {
  if (!(await trx.selectFrom('delivery_methods').select('id').limit(1).executeTakeFirst())) {
    await trx
      .insertInto('delivery_methods')
      .values(
        data.deliveryMethods.map((m, i) => ({
          id: m.id,
          country_id: m.countryId,
          name: m.name,
          rate: m.rate,
          min_items_total: m.minItemsTotal,
          max_items_total: m.maxItemsTotal,
          sort_order: i,
          active: 1,
          carrier_service: m.carrierService ?? null,
          package_format: m.packageFormat ?? null,
        })),
      )
      .execute();
  }
  if (!(await trx.selectFrom('vouchers').select('id').limit(1).executeTakeFirst())) {
    await trx
      .insertInto('vouchers')
      .values(
        data.vouchers.map((v) => ({
          code: v.code,
          kind: v.kind,
          amount: v.amount,
          min_spend: v.minSpend,
          valid_from: v.validFrom,
          valid_to: v.validTo,
          usage_limit: null,
        })),
      )
      .execute();
  }
}
