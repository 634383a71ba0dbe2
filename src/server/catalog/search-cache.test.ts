import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

describe('the search cache', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function totalFor(app: TestApp, payload: Record<string, unknown>): Promise<number> {
    return (await app.app.inject({ method: 'POST', url: '/api/search', payload })).json().totalResults;
  }

  it('reuses a search page for SEARCH_CACHE_SECONDS, shared by requests that differ only in case and order', async () => {
    t = await createTestApp({ env: { SEARCH_CACHE_SECONDS: '1' } });
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    await make.product({ title: 'Cached Dhol', typeId: type.id, brandId: brand.id });
    expect(await totalFor(t, { title: 'cached', typeId: [type.id] })).toBe(1);

    await make.product({ title: 'Cached Dhol Two', typeId: type.id, brandId: brand.id });
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/search',
      payload: { title: '  CACHED ', typeId: [type.id] },
    });
    expect(again.json()).toMatchObject({ title: 'CACHED', totalResults: 1 });

    await sleep(1_100);
    expect(await totalFor(t, { title: 'cached', typeId: [type.id] })).toBe(2);
  });

  it('is off when SEARCH_CACHE_SECONDS is 0, the test default', async () => {
    t = await createTestApp();
    const make = catalogFactory(t.db);
    const type = await make.type();
    const brand = await make.brand();
    await make.product({ title: 'Fresh Tabla', typeId: type.id, brandId: brand.id });
    expect(await totalFor(t, { typeId: [type.id] })).toBe(1);
    await make.product({ title: 'Fresh Tabla Two', typeId: type.id, brandId: brand.id });
    expect(await totalFor(t, { typeId: [type.id] })).toBe(2);
  });
});
