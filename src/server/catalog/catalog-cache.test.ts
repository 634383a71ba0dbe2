import { afterEach, describe, expect, it } from 'vitest';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { manualClock } from '../../../test/helpers/clock.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/** ADR 0006: product bodies and random-pick candidates kept per instance for a few seconds. */
describe('the catalogue cache', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const get = (url: string) => t!.app.inject({ method: 'GET', url });

  it('reuses a product page and random picks for CATALOG_CACHE_SECONDS, while the basket reads stock fresh', async () => {
    const clock = manualClock();
    t = await createTestApp({ env: { CATALOG_CACHE_SECONDS: '1' }, now: clock.now });
    const fx = await checkoutFixtures(t.db);
    const p = await fx.product(2000, 3);
    const stockOnPage = async () => (await get(`/api/products/${p.urlKey}`)).json().stocks[0].stock as number;
    expect(await stockOnPage()).toBe(3);

    await t.db.kysely.updateTable('product_stocks').set({ stock: 1 }).where('id', '=', p.stockId).execute();
    expect(await stockOnPage()).toBe(3);
    // The basket and the commit never use the cache: 2 units are refused at once.
    const verify = await t.app.inject({
      method: 'POST',
      url: '/api/verify-basket',
      payload: { items: [{ productStockId: p.stockId, requestedQty: 2 }] },
    });
    expect(verify.json().items[0]).toMatchObject({ availableStock: 1, hasError: true });
    const commit = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 2 }]),
    });
    expect(commit.json().ok).toBe(false);

    // At the end of its second the page is read again.
    clock.advance(999);
    expect(await stockOnPage()).toBe(3);
    clock.advance(1);
    expect(await stockOnPage()).toBe(1);
  });

  it('reuses the brand list for CATALOG_CACHE_SECONDS, as it does the type tree', async () => {
    const clock = manualClock();
    t = await createTestApp({ env: { CATALOG_CACHE_SECONDS: '1' }, now: clock.now });
    const brand = await catalogFactory(t.db).brand({ name: 'Taalwala' });
    const brandNames = async () => (await get('/api/brands')).json().map((b: { name: string }) => b.name) as string[];
    expect(await brandNames()).toContain('Taalwala');

    await t.db.kysely
      .updateTable('brands')
      .set({ name: 'Renamed behind the shop' })
      .where('id', '=', brand.id)
      .execute();
    expect(await brandNames()).toContain('Taalwala');
    clock.advance(999);
    expect(await brandNames()).toContain('Taalwala');
    clock.advance(1);
    expect(await brandNames()).toContain('Renamed behind the shop');
  });

  it('draws random picks on a large type from a sample kept with the cache, so a crowd reuses bodies already kept', async () => {
    t = await createTestApp({ env: { CATALOG_CACHE_SECONDS: '60' } });
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    for (let i = 0; i < 150; i++) await make.product({ typeId: type.id, brandId: brand.id });
    const shown = new Set<number>();
    for (let i = 0; i < 40; i++) {
      const picks = (await get(`/api/products/random/${type.id}/8`)).json() as Array<{ id: number }>;
      expect(new Set(picks.map((p) => p.id)).size).toBe(8);
      for (const pick of picks) shown.add(pick.id);
    }
    // 320 picks from all 150 would show about 130 of them; from the kept sample, at most its 60.
    expect(shown.size).toBeLessThanOrEqual(60);
    expect(shown.size).toBeGreaterThan(8);
  });

  it('draws random picks from the cached candidates: distinct, of the type asked, and new products after expiry', async () => {
    const clock = manualClock();
    t = await createTestApp({ env: { CATALOG_CACHE_SECONDS: '1' }, now: clock.now });
    const make = catalogFactory(t.db);
    const type = await make.type();
    const other = await make.type();
    const brand = await make.brand();
    for (let i = 0; i < 6; i++) await make.product({ typeId: type.id, brandId: brand.id });
    await make.product({ typeId: other.id, brandId: brand.id });
    const picks = (await get(`/api/products/random/${type.id}/4`)).json() as Array<{
      id: number;
      productTypeId: number;
    }>;
    expect(picks).toHaveLength(4);
    expect(new Set(picks.map((p) => p.id)).size).toBe(4);
    expect(picks.every((p) => p.productTypeId === type.id)).toBe(true);
    const seen = new Set<number>();
    for (let i = 0; i < 20; i++)
      for (const p of (await get(`/api/products/random/${type.id}/4`)).json()) seen.add(p.id);
    expect(seen.size).toBe(6);

    const added = await make.product({ typeId: type.id, brandId: brand.id });
    clock.advance(1_000);
    const after = new Set<number>();
    for (let i = 0; i < 30; i++)
      for (const p of (await get(`/api/products/random/${type.id}/6`)).json()) after.add(p.id);
    expect(after.has(added.id)).toBe(true);
  });
});
