import type { ProductStatus } from '../../src/contract/catalog-rules.ts';
import type { Db } from '../../src/server/db/database.ts';

/**
 * Builds catalogue rows for a test, each with overridable fields, so a test states only what it
 * cares about and never leans on the demo data.
 */

let sequence = 0;
const next = () => ++sequence + Math.floor(Math.random() * 1000) * 1000;

export interface StockInput {
  sizeName?: string;
  price?: number;
  priceReduction?: number;
  priceWithoutDiscount?: number;
  stock?: number;
}

export function catalogFactory(db: Db) {
  const k = db.kysely;
  return {
    async type(input: { id?: number; name?: string; parentId?: number } = {}) {
      const row = {
        id: input.id ?? next(),
        name: input.name ?? `Type ${sequence}`,
        parent_id: input.parentId ?? -1,
        sort_order: 0,
      };
      await k.insertInto('product_types').values(row).execute();
      return row;
    },

    async brand(input: { id?: number; name?: string } = {}) {
      const row = { id: input.id ?? next(), name: input.name ?? `Brand ${sequence}` };
      await k.insertInto('brands').values(row).execute();
      return row;
    },

    async product(input: {
      typeId: number;
      brandId: number;
      title?: string;
      urlKey?: string;
      description?: string;
      searchTags?: string;
      stocks?: StockInput[];
      images?: string[];
      status?: ProductStatus;
    }) {
      const title = input.title ?? `Product ${next()}`;
      const inserted = await k
        .insertInto('products')
        .values({
          url_key: input.urlKey ?? `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${next()}`,
          title,
          brand_id: input.brandId,
          product_type_id: input.typeId,
          description: input.description ?? 'A test product.\nWith a second line.',
          seo_title: title,
          seo_keywords: 'test',
          seo_description: 'A test product',
          tags: input.searchTags ?? '',
          search_tags: input.searchTags ?? '',
          search_text: input.description ?? '',
          ...(input.status ? { status: input.status } : {}),
        })
        .returning(['id', 'url_key'])
        .executeTakeFirstOrThrow();
      const stocks = input.stocks ?? [{}];
      const stockRows = [];
      for (const [i, s] of stocks.entries()) {
        const price = s.price ?? 1000;
        stockRows.push(
          await k
            .insertInto('product_stocks')
            .values({
              product_id: inserted.id,
              size_name: s.sizeName ?? `Size ${i + 1}`,
              price,
              price_reduction: s.priceReduction ?? 0,
              price_without_discount: s.priceWithoutDiscount ?? price,
              stock: s.stock ?? 10,
              sort_order: i,
            })
            .returning(['id'])
            .executeTakeFirstOrThrow(),
        );
      }
      for (const [i, url] of (input.images ?? ['/images/products/dhol-1.svg']).entries()) {
        await k
          .insertInto('product_images')
          .values({ product_id: inserted.id, image_url: url, sort_order: i })
          .execute();
      }
      return { id: inserted.id, urlKey: inserted.url_key, title, stockIds: stockRows.map((r) => r.id) };
    },
  };
}
