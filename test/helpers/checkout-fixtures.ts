import type { BasketRequest } from '../../src/contract/basket.ts';
import type { Db } from '../../src/server/db/database.ts';
import { catalogFactory } from './catalog-factory.ts';

/** The United Kingdom, its delivery methods and a voucher factory, for basket and order tests. */
export async function checkoutFixtures(db: Db) {
  const k = db.kysely;
  if (!(await k.selectFrom('countries').select('id').where('id', '=', 1).executeTakeFirst())) {
    await k.insertInto('countries').values({ id: 1, name: 'United Kingdom', iso_code: 'GB' }).execute();
    await k
      .insertInto('delivery_methods')
      .values([
        {
          id: 1,
          country_id: 1,
          name: 'Standard delivery',
          rate: 495,
          min_items_total: null,
          max_items_total: 5000,
          sort_order: 0,
          active: 1,
        },
        {
          id: 2,
          country_id: 1,
          name: 'Free standard delivery',
          rate: 0,
          min_items_total: 5000,
          max_items_total: null,
          sort_order: 1,
          active: 1,
        },
        {
          id: 3,
          country_id: 1,
          name: 'Express delivery',
          rate: 995,
          min_items_total: null,
          max_items_total: null,
          sort_order: 2,
          active: 1,
        },
      ])
      .execute();
  }
  const make = catalogFactory(db);
  const type = await make.type();
  const brand = await make.brand();
  let voucherNumber = 0;
  return {
    /** A product with one stock entry of the given price and stock. */
    async product(price: number, stock: number) {
      const p = await make.product({ typeId: type.id, brandId: brand.id, stocks: [{ price, stock }] });
      return { ...p, stockId: p.stockIds[0] as number };
    },
    async voucher(
      input: {
        kind?: 'percent' | 'fixed';
        amount?: number;
        minSpend?: number;
        validFrom?: string;
        validTo?: string;
        usageLimit?: number | null;
      } = {},
    ) {
      const code = `TEST${Date.now().toString(36).toUpperCase()}${++voucherNumber}`;
      await k
        .insertInto('vouchers')
        .values({
          code,
          kind: input.kind ?? 'percent',
          amount: input.amount ?? 10,
          min_spend: input.minSpend ?? 0,
          valid_from: input.validFrom ?? '2020-01-01T00:00:00.000Z',
          valid_to: input.validTo ?? '2099-01-01T00:00:00.000Z',
          usage_limit: input.usageLimit ?? null,
        })
        .execute();
      return code;
    },
    /** A free delivery method of the kind collection (collected from the shop): its id. */
    async collectionMethod(id: number, name: string): Promise<number> {
      await k
        .insertInto('delivery_methods')
        .values({
          id,
          country_id: 1,
          name,
          rate: 0,
          min_items_total: null,
          max_items_total: null,
          sort_order: 9,
          active: 1,
          kind: 'collection',
        })
        .execute();
      return id;
    },
    async stockOf(stockId: number): Promise<number> {
      return (await k.selectFrom('product_stocks').select('stock').where('id', '=', stockId).executeTakeFirstOrThrow())
        .stock;
    },
  };
}

export const address = {
  line1: '12 Market Street',
  line2: '',
  line3: '',
  postcode: 'B70 7NJ',
  townCity: 'West Bromwich',
  countryId: 1,
};
export const guest = {
  titleId: 1,
  firstname: 'Asha',
  lastname: 'Kaur',
  email: 'Asha@Example.com',
  contactNumber: '0121 496 0000',
};

/** A basket ready to commit, for the given lines, with express delivery. */
export function commitBody(
  items: Array<{ productStockId: number; requestedQty: number }>,
  extra: Partial<BasketRequest> = {},
) {
  return { items, guest, billingAddress: address, deliveryAddress: address, deliveryMethodRateId: 3, ...extra };
}
