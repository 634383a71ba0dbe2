import { afterEach, describe, expect, it } from 'vitest';
import { adminCalls } from '../../../test/helpers/catalogue-admin.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { manualClock } from '../../../test/helpers/clock.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * ADR 0010: a back-office change shows at once on the instance that made it, and on every other
 * instance within the caches' seconds (10 in production; 1 here, to keep the test short), whether
 * that instance is busy (its entries refreshed in the background) or has been quiet. Both instances
 * tell age by a clock the test moves on, so the bound is checked exactly and nothing waits.
 */
const SECONDS = 1;

describe('catalogue freshness across instances', () => {
  let t: TestApp | undefined;
  let second: Awaited<ReturnType<typeof createSecondInstance>> | undefined;
  let clock: ReturnType<typeof manualClock>;
  afterEach(async () => {
    await second?.close();
    await t?.close();
    second = undefined;
    t = undefined;
  });

  async function twoInstances() {
    clock = manualClock();
    t = await createTestApp({
      env: { SEARCH_CACHE_SECONDS: String(SECONDS), CATALOG_CACHE_SECONDS: String(SECONDS) },
      now: clock.now,
    });
    second = await createSecondInstance(t, { now: clock.now });
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    const word = `fresh${Date.now().toString(36)}`;
    const product = await make.product({ typeId: type.id, brandId: brand.id, title: `Tabla ${word}` });
    const admin = adminCalls(t, (await staffMember(t, 'staff')).cookie);
    const other = second.app;
    /** What a shopper sees of the product on the other instance (one call at a time, each its own first look). */
    const seenOnSecond = async () => {
      const tree = await other.inject({ method: 'GET', url: '/api/product-types' });
      const page = await other.inject({ method: 'GET', url: `/api/products/${product.urlKey}` });
      const search = await other.inject({ method: 'POST', url: '/api/search', payload: { title: word } });
      const random = await other.inject({ method: 'GET', url: `/api/products/random/${type.id}/4` });
      return {
        search: search.json().totalResults as number,
        page: page.statusCode,
        random: (random.json() as unknown[]).length,
        typeName: (tree.json() as Array<{ id: number; name: string }>).find((x) => x.id === type.id)?.name,
      };
    };
    return { admin, product, type, seenOnSecond };
  }

  it('a busy instance shows an archived product gone, and a renamed type, within its seconds', async () => {
    const { admin, product, type, seenOnSecond } = await twoInstances();
    expect(await seenOnSecond()).toEqual({ search: 1, page: 200, random: 1, typeName: type.name });

    // Everything read so far was read before this millisecond.
    clock.advance(1);
    await admin('POST', `/products/${product.id}/status`, { status: 'archived' });
    await admin('PUT', `/product-types/${type.id}`, { name: 'Renamed tablas', parentId: -1 });
    const changed = { search: 0, page: 404, random: 0, typeName: 'Renamed tablas' };
    // Busy: asked every 50 ms of its clock, so its entries are refreshed in the background from half
    // their age. By the end of its seconds it shows the change, whatever it showed before.
    for (let waited = 0; waited < SECONDS * 1000; waited += 50) {
      await seenOnSecond();
      clock.advance(50);
    }
    expect(await seenOnSecond()).toEqual(changed);
    // Once shown, it stays: no older answer comes back from a refresh begun before the change.
    for (let i = 0; i < 10; i++) {
      clock.advance(100);
      expect(await seenOnSecond()).toEqual(changed);
    }
  });

  it('a quiet instance answers its first request after its seconds from the database, not from what it kept', async () => {
    const { admin, product, type, seenOnSecond } = await twoInstances();
    expect(await seenOnSecond()).toEqual({ search: 1, page: 200, random: 1, typeName: type.name });
    await admin('POST', `/products/${product.id}/status`, { status: 'archived' });
    await admin('PUT', `/product-types/${type.id}`, { name: 'Renamed tablas', parentId: -1 });
    clock.advance(SECONDS * 1000 + 1);
    expect(await seenOnSecond()).toEqual({ search: 0, page: 404, random: 0, typeName: 'Renamed tablas' });
  });
});
