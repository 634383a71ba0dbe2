import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { productListSchema, productSchema, searchResponseSchema, type Product } from '../../contract/catalog.ts';
import { catalogFactory, type StockInput } from '../../../test/helpers/catalog-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * The price a product card shows is chosen by the server, in every list a card is drawn from
 * (search, the home page's random picks, related products) and on the product itself: the cheapest
 * size in stock, "from" when the sizes in stock differ in price (issue 32, item 3: a card showed a
 * sold-out size's price, £489.99, that no one could buy).
 */
describe('the card price', () => {
  let t: TestApp;
  let make: ReturnType<typeof catalogFactory>;
  let typeId: number;
  let brandId: number;
  beforeAll(async () => {
    t = await createTestApp();
    make = catalogFactory(t.db);
    typeId = (await make.type({ name: 'Dhols' })).id;
    brandId = (await make.brand({ name: 'Raagini' })).id;
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });
  const add = (title: string, stocks: StockInput[]) => make.product({ typeId, brandId, title, stocks });

  /** The product as each answer gives it: by its key, in a search for its title, among random and related picks. */
  async function everyAnswer(made: { id: number; urlKey: string; title: string }): Promise<Product[]> {
    const own = productSchema.parse((await get(`/api/products/${made.urlKey}`)).json());
    const searched = searchResponseSchema
      .parse((await t.app.inject({ method: 'POST', url: '/api/search', payload: { title: made.title } })).json())
      .results.find((p) => p.id === made.id);
    const random = productListSchema
      .parse((await get(`/api/products/random/${typeId}/36`)).json())
      .find((p) => p.id === made.id);
    const neighbour = await add(`Neighbour of ${made.title}`, [{ price: 100 }]);
    const related = productListSchema
      .parse((await get(`/api/products/${neighbour.urlKey}/36`)).json())
      .find((p) => p.id === made.id);
    return [own, searched, random, related].map((product, i) => {
      expect(product, ['by key', 'search', 'random', 'related'][i]).toBeDefined();
      return product!;
    });
  }

  it('is the cheapest size in stock, "from" when the sizes in stock differ in price', async () => {
    const made = await add('Kesari Dhol', [
      { sizeName: 'Junior 18 inch', price: 48999, stock: 0 },
      { sizeName: 'Professional 26 inch', price: 69999, stock: 2 },
      { sizeName: 'Standard 24 inch', price: 59299, priceReduction: 5, priceWithoutDiscount: 62420, stock: 3 },
    ]);
    for (const product of await everyAnswer(made)) {
      expect(product.cardPrice).toEqual({
        productStockId: made.stockIds[2],
        price: 59299,
        priceWithoutDiscount: 62420,
        from: true,
        highestReduction: 5,
      });
    }
  });

  it('is not "from" when the sizes in stock cost the same, whatever a sold-out size costs', async () => {
    const made = await add('Sheesham Dholak', [
      { sizeName: 'Small', price: 9999, stock: 0 },
      { sizeName: 'Medium', price: 14999, stock: 4 },
      { sizeName: 'Medium, rope-tuned', price: 14999, stock: 1 },
    ]);
    for (const product of await everyAnswer(made)) {
      expect(product.cardPrice).toMatchObject({ productStockId: made.stockIds[1], price: 14999, from: false });
    }
  });

  it('badges the highest reduction of the sizes in stock, not of a sold-out one', async () => {
    const made = await add('Wedding Dhol', [
      { sizeName: 'Small', price: 8000, priceReduction: 20, priceWithoutDiscount: 10000, stock: 0 },
      { sizeName: 'Large', price: 13500, priceReduction: 10, priceWithoutDiscount: 15000, stock: 2 },
    ]);
    const [product] = await everyAnswer(made);
    expect(product!.cardPrice).toEqual({
      productStockId: made.stockIds[1],
      price: 13500,
      priceWithoutDiscount: 15000,
      from: false,
      highestReduction: 10,
    });
  });

  it('with every size sold out, is the cheapest size (the card says Sold out beside it)', async () => {
    const made = await add('Brass Khartal', [
      { sizeName: 'Two pairs', price: 4499, stock: 0 },
      { sizeName: 'Pair', price: 2499, stock: 0 },
    ]);
    for (const product of await everyAnswer(made)) {
      expect(product.cardPrice).toEqual({
        productStockId: made.stockIds[1],
        price: 2499,
        priceWithoutDiscount: 2499,
        from: true,
        highestReduction: 0,
      });
    }
  });

  it('follows the stock: when the cheapest size sells out, the next answer shows the next size in stock', async () => {
    const made = await add('Bolt-Tuned Dhol', [
      { sizeName: 'Junior', price: 30000, stock: 1 },
      { sizeName: 'Standard', price: 40000, stock: 5 },
    ]);
    const before = productSchema.parse((await get(`/api/products/${made.urlKey}`)).json());
    expect(before.cardPrice).toMatchObject({ productStockId: made.stockIds[0], price: 30000, from: true });
    await t.db.kysely.updateTable('product_stocks').set({ stock: 0 }).where('id', '=', made.stockIds[0]!).execute();
    const after = productSchema.parse((await get(`/api/products/${made.urlKey}`)).json());
    expect(after.cardPrice).toMatchObject({ productStockId: made.stockIds[1], price: 40000, from: false });
  });
});
