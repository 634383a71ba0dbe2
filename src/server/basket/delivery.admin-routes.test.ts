import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deliveryMethodListSchema,
  deliveryMethodSchema,
  deliverySetupSchema,
  type DeliveryMethodInput,
} from '../../contract/admin/delivery.ts';
import { commitResponseSchema, deliveryMethodRateListSchema, pricedBasketSchema } from '../../contract/basket.ts';
import { address, checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { auditOf as auditEntries } from '../audit/audit.repository.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createSecondInstance, createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Delivery in the back office (docs/back-office.md#delivery): methods and rates by country and items
 * total as checkout reads them next, their order, the countries served, and the refusals.
 */
describe('back office delivery', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let staff: { cookie: string; email: string };
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
    staff = await staffMember(t, 'staff');
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/admin${url}`,
      headers: { cookie: staff.cookie },
      ...(payload ? { payload } : {}),
    });
  const method = (input: Partial<DeliveryMethodInput> = {}): DeliveryMethodInput => ({
    countryId: 1,
    name: 'Courier',
    rate: 1500,
    minItemsTotal: null,
    maxItemsTotal: null,
    active: true,
    ...input,
  });
  let isoCodes = 0;
  async function addCountry(name = 'Ireland') {
    const isoCode = `Q${String.fromCharCode(65 + (isoCodes++ % 26))}`;
    const answer = await admin('POST', '/countries', { name, isoCode });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as { id: number; name: string; isoCode: string };
  }
  const verify = async (stockId: number, deliveryMethodRateId: number, countryId = 1) =>
    pricedBasketSchema.parse(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/verify-basket',
          payload: {
            items: [{ productStockId: stockId, requestedQty: 1 }],
            deliveryAddress: { ...address, countryId },
            deliveryMethodRateId,
          },
        })
      ).json(),
    );
  const auditOf = (entityType: string, entityId: number) => auditEntries(t.db.kysely, entityType, entityId);

  it('adds a method for a new country that checkout offers at once, by items total', async () => {
    const country = await addCountry('Ireland');
    const created = await admin(
      'POST',
      '/delivery-methods',
      method({ countryId: country.id, rate: 1800, maxItemsTotal: 10000 }),
    );
    expect(created.statusCode, created.body).toBe(201);
    const made = deliveryMethodSchema.parse(created.json());
    expect(made).toMatchObject({ countryId: country.id, rate: 1800, sortOrder: 0, active: true });

    const rates = async (total: number) =>
      deliveryMethodRateListSchema.parse((await t.app.inject(`/api/delivery-methods/${country.id}/${total}`)).json());
    expect(await rates(9999)).toEqual([{ id: made.id, name: 'Courier', rate: 1800, kind: 'delivery' }]);
    expect(await rates(10000)).toEqual([]);
    const p = await fx.product(2500, 5);
    expect(await verify(p.stockId, made.id, country.id)).toMatchObject({ deliveryPrice: 1800 });

    expect(await auditOf('delivery_method', made.id)).toEqual([
      expect.objectContaining({ action: 'delivery.create', staff_email: staff.email, before: null }),
    ]);
    const setup = deliverySetupSchema.parse((await admin('GET', '/delivery')).json());
    expect(setup.countries).toContainEqual(country);
    expect(setup.methods).toContainEqual(made);
  });

  it('shows a changed rate at the next checkout on this instance at once (its cache cleared), and on another', async () => {
    const p = await fx.product(2500, 5);
    const country = await addCountry('France');
    const made = deliveryMethodSchema.parse(
      (await admin('POST', '/delivery-methods', method({ countryId: country.id, rate: 2000 }))).json(),
    );
    const other = await createSecondInstance(t);
    try {
      expect(await verify(p.stockId, made.id, country.id)).toMatchObject({ deliveryPrice: 2000 });
      const changed = await admin('PUT', `/delivery-methods/${made.id}`, method({ countryId: country.id, rate: 2600 }));
      expect(changed.statusCode, changed.body).toBe(200);
      // This instance kept the old rate in its cache a moment ago; the change cleared it.
      expect(await verify(p.stockId, made.id, country.id)).toMatchObject({ deliveryPrice: 2600 });
      const fromOther = pricedBasketSchema.parse(
        (
          await other.app.inject({
            method: 'POST',
            url: '/api/verify-basket',
            payload: {
              items: [{ productStockId: p.stockId, requestedQty: 1 }],
              deliveryAddress: { ...address, countryId: country.id },
              deliveryMethodRateId: made.id,
            },
          })
        ).json(),
      );
      expect(fromOther.deliveryPrice).toBe(2600);
    } finally {
      await other.close();
    }
    const audit = await auditOf('delivery_method', made.id);
    expect(audit.map((entry) => entry.action)).toEqual(['delivery.create', 'delivery.update']);
    expect(JSON.parse(audit[1]!.before!)).toMatchObject({ rate: 2000 });
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ rate: 2600 });
  });

  it('deactivates a method: checkout no longer offers it', async () => {
    const country = await addCountry('Spain');
    const made = deliveryMethodSchema.parse(
      (await admin('POST', '/delivery-methods', method({ countryId: country.id }))).json(),
    );
    const off = await admin('PUT', `/delivery-methods/${made.id}`, method({ countryId: country.id, active: false }));
    expect(off.statusCode).toBe(200);
    expect((await t.app.inject(`/api/delivery-methods/${country.id}/1000`)).json()).toEqual([]);
    expect((await auditOf('delivery_method', made.id)).map((entry) => entry.action)).toEqual([
      'delivery.create',
      'delivery.deactivate',
    ]);
  });

  it("reorders a country's methods, as checkout lists them", async () => {
    const country = await addCountry('Italy');
    const ids: number[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      ids.push(
        deliveryMethodSchema.parse(
          (await admin('POST', '/delivery-methods', method({ countryId: country.id, name }))).json(),
        ).id,
      );
    }
    const reordered = await admin('POST', '/delivery-methods/order', {
      countryId: country.id,
      methodIds: [ids[2], ids[0], ids[1]],
    });
    expect(reordered.statusCode, reordered.body).toBe(200);
    expect(deliveryMethodListSchema.parse(reordered.json()).map((m) => m.name)).toEqual(['Third', 'First', 'Second']);
    const offered = deliveryMethodRateListSchema.parse(
      (await t.app.inject(`/api/delivery-methods/${country.id}/1000`)).json(),
    );
    expect(offered.map((m) => m.name)).toEqual(['Third', 'First', 'Second']);

    const partial = await admin('POST', '/delivery-methods/order', { countryId: country.id, methodIds: [ids[0]] });
    expect(partial.statusCode).toBe(400);
    expect(partial.json().error.fields).toEqual([expect.objectContaining({ field: 'methodIds' })]);
    expect((await auditOf('country', country.id)).map((entry) => entry.action)).toEqual([
      'country.add',
      'delivery.reorder',
    ]);
  });

  it('keeps a method’s kind, delivery unless it is collection, and offers it at checkout with its kind', async () => {
    const country = await addCountry('Jersey');
    const plain = deliveryMethodSchema.parse(
      (await admin('POST', '/delivery-methods', method({ countryId: country.id }))).json(),
    );
    expect(plain.kind).toBe('delivery');
    const changed = await admin(
      'PUT',
      `/delivery-methods/${plain.id}`,
      method({ countryId: country.id, name: 'Collect from the shop', rate: 0, kind: 'collection' }),
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(deliveryMethodSchema.parse(changed.json()).kind).toBe('collection');
    expect((await t.app.inject(`/api/delivery-methods/${country.id}/1000`)).json()).toEqual([
      { id: plain.id, name: 'Collect from the shop', rate: 0, kind: 'collection' },
    ]);
    expect(JSON.parse((await auditOf('delivery_method', plain.id)).at(-1)?.after ?? '{}')).toMatchObject({
      kind: 'collection',
    });
    const bad = await admin('POST', '/delivery-methods', { ...method(), kind: 'drone' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields).toEqual([expect.objectContaining({ field: 'kind' })]);
  });

  it('answers bad input with a 400 naming each field', async () => {
    const fieldsOf = async (url: string, payload: object, verb: 'POST' | 'PUT' = 'POST') => {
      const answer = await admin(verb, url, payload);
      expect(answer.statusCode, answer.body).toBe(400);
      return [...new Set((answer.json().error.fields as Array<{ field: string }>).map((f) => f.field))].sort();
    };
    expect(await fieldsOf('/delivery-methods', method({ name: ' ', rate: -1 }))).toEqual(['name', 'rate']);
    expect(await fieldsOf('/delivery-methods', method({ minItemsTotal: 5000, maxItemsTotal: 5000 }))).toEqual([
      'maxItemsTotal',
    ]);
    expect(await fieldsOf('/delivery-methods', method({ countryId: 987_654 }))).toEqual(['countryId']);
    expect(await fieldsOf('/countries', { name: '', isoCode: 'IRL' })).toEqual(['isoCode', 'name']);
    expect((await admin('PUT', '/delivery-methods/999999', method())).statusCode).toBe(404);
  });

  it('refuses a rate over £10,000 and items totals over £1,000,000, naming the field, on create and edit', async () => {
    // An outside attack saved a rate of 2^53 - 1 pence; checkout then priced a £90-trillion order.
    const country = await addCountry('Norway');
    const refused = async (input: Partial<DeliveryMethodInput>, verb: 'POST' | 'PUT' = 'POST', url = '') => {
      const answer = await admin(verb, `/delivery-methods${url}`, method({ countryId: country.id, ...input }));
      expect(answer.statusCode, answer.body).toBe(400);
      return (answer.json().error.fields as Array<{ field: string; message: string }>).map(
        (f) => `${f.field}: ${f.message}`,
      );
    };
    expect(await refused({ rate: 9_007_199_254_740_991 })).toEqual(['rate: The rate must be at most £10,000']);
    expect(await refused({ rate: 1_000_001 })).toEqual(['rate: The rate must be at most £10,000']);
    expect(await refused({ minItemsTotal: 100_000_001, maxItemsTotal: 9_007_199_254_740_991 })).toEqual([
      'minItemsTotal: At most £1,000,000, the most one order may come to',
      'maxItemsTotal: At most £1,000,000, the most one order may come to',
    ]);
    const made = await admin(
      'POST',
      '/delivery-methods',
      method({ countryId: country.id, rate: 1_000_000, minItemsTotal: 100_000_000 }),
    );
    expect(made.statusCode, made.body).toBe(201);
    const id = deliveryMethodSchema.parse(made.json()).id;
    expect(await refused({ rate: 1_000_001 }, 'PUT', `/${id}`)).toEqual(['rate: The rate must be at most £10,000']);
  });

  it('sets a method’s transit days, 0 to 30 whole days, kept when an edit leaves them out', async () => {
    // They start a return's window when its delivery was not recorded (docs/rules.md#returns).
    const country = await addCountry('Iceland');
    const post = (input: Record<string, unknown>) =>
      admin('POST', '/delivery-methods', { ...method({ countryId: country.id }), ...input });
    const plain = await post({});
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json()).toMatchObject({ transitDays: 3 });
    const made = await post({ transitDays: 5 });
    expect(made.statusCode, made.body).toBe(201);
    const id = deliveryMethodSchema.parse(made.json()).id;
    expect(made.json()).toMatchObject({ transitDays: 5 });
    const renamed = await admin('PUT', `/delivery-methods/${id}`, method({ countryId: country.id, name: 'Airmail' }));
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'Airmail', transitDays: 5 });
    const changed = await admin('PUT', `/delivery-methods/${id}`, {
      ...method({ countryId: country.id }),
      transitDays: 0,
    });
    expect(changed.json()).toMatchObject({ transitDays: 0 });
    expect(
      (
        (await admin('GET', '/delivery')).json() as { methods: Array<{ id: number; transitDays: number }> }
      ).methods.find((one) => one.id === id),
    ).toMatchObject({ transitDays: 0 });
    for (const bad of [-1, 31, 2.5, '3', null]) {
      for (const answer of [
        await post({ transitDays: bad }),
        await admin('PUT', `/delivery-methods/${id}`, { ...method({ countryId: country.id }), transitDays: bad }),
      ]) {
        expect(answer.statusCode, `${String(bad)}: ${answer.body}`).toBe(400);
        expect(answer.json().error.fields).toEqual([
          { field: 'transitDays', message: 'Please enter whole days from 0 to 30' },
        ]);
      }
    }
  });

  it('refuses a second country with the same ISO code', async () => {
    const country = await addCountry('Portugal');
    const again = await admin('POST', '/countries', { name: 'Portugal again', isoCode: country.isoCode.toLowerCase() });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toBe(`Portugal already has the ISO code ${country.isoCode}.`);
  });

  it('removes a country nothing uses, and refuses one a method or an unpaid order uses, saying why', async () => {
    const unused = await addCountry('Malta');
    const removed = await admin('DELETE', `/countries/${unused.id}`);
    expect(removed.statusCode).toBe(200);
    expect(deliverySetupSchema.parse(removed.json()).countries.map((c) => c.id)).not.toContain(unused.id);
    expect(
      await t.db.kysely.selectFrom('countries').select('id').where('id', '=', unused.id).executeTakeFirst(),
    ).toBeUndefined();
    expect((await auditOf('country', unused.id)).map((entry) => entry.action)).toEqual([
      'country.add',
      'country.remove',
    ]);
    expect((await admin('DELETE', `/countries/${unused.id}`)).statusCode).toBe(404);

    const withMethod = await admin('DELETE', '/countries/1');
    expect(withMethod.statusCode).toBe(409);
    expect(withMethod.json().error.message).toBe(
      'United Kingdom still has 3 delivery methods; remove or move them to another country first.',
    );

    // An unpaid order going to a country whose method has since moved away.
    const country = await addCountry('Greece');
    const made = deliveryMethodSchema.parse(
      (await admin('POST', '/delivery-methods', method({ countryId: country.id, rate: 900 }))).json(),
    );
    const p = await fx.product(2500, 5);
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }], {
        guest: { ...guest, email: `greece.${Date.now()}@example.com` },
        deliveryAddress: { ...address, countryId: country.id },
        deliveryMethodRateId: made.id,
      }),
    });
    expect(commitResponseSchema.parse(committed.json()).ok, committed.body).toBe(true);
    await admin('PUT', `/delivery-methods/${made.id}`, method({ countryId: 1, rate: 900 }));
    const withOrder = await admin('DELETE', `/countries/${country.id}`);
    expect(withOrder.statusCode).toBe(409);
    expect(withOrder.json().error.message).toBe(
      '1 unpaid order still goes to or from Greece; try again once it is paid or expired.',
    );
  });
});
