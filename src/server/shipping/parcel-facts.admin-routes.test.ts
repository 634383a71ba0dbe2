import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProductDetail } from '../../contract/admin/catalogue.ts';
import type { Packaging } from '../../contract/admin/shipping.ts';
import { adminCalls, productInput } from '../../../test/helpers/catalogue-admin.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Parcel facts (issue 38 item 1, docs/back-office.md#shipping-labels): packaging presets, each size's
 * weight and its box (a preset or its own dimensions), and the carrier service each delivery method
 * is sent by. Runs on SQLite, and on PostgreSQL with TEST_DATABASE_URL.
 */
describe('parcel facts in the back office', () => {
  let t: TestApp;
  let admin: ReturnType<typeof adminCalls>;
  let type: { id: number };
  let brand: { id: number };
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' } });
    await checkoutFixtures(t.db);
    const make = catalogFactory(t.db);
    type = await make.type({ name: 'Tablas' });
    brand = await make.brand({ name: 'Kolkata Works' });
    admin = adminCalls(t, (await staffMember(t, 'owner')).cookie);
  });
  afterAll(() => t.close());

  /** The fields a 400 names, each with its message. */
  const fieldsOf = (answer: { json(): unknown }) =>
    Object.fromEntries(
      ((answer.json() as { error: { fields?: Array<{ field: string; message: string }> } }).error.fields ?? []).map(
        (f) => [f.field, f.message],
      ),
    );

  async function packaging(name: string, size = { lengthMm: 450, widthMm: 450, heightMm: 350, weightGrams: 900 }) {
    const answer = await admin('POST', '/packagings', { name, ...size });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as Packaging;
  }

  it('keeps packaging presets, names their bad fields, and will not delete one a size is sent in', async () => {
    const box = await packaging('Tabla box');
    expect(box).toMatchObject({
      name: 'Tabla box',
      lengthMm: 450,
      widthMm: 450,
      heightMm: 350,
      weightGrams: 900,
      sizes: 0,
    });

    const bad = await admin('POST', '/packagings', {
      name: '',
      lengthMm: 0,
      widthMm: 1.5,
      heightMm: 2000,
      weightGrams: -1,
    });
    expect(bad.statusCode).toBe(400);
    const fields = fieldsOf(bad);
    expect(Object.keys(fields).sort()).toEqual(['heightMm', 'lengthMm', 'name', 'weightGrams', 'widthMm']);

    // One plain line: the name is printed on slips and read in the CSV.
    for (const name of ['Tabla\nbox', 'Tabla \u202e box']) {
      const odd = await admin('POST', '/packagings', { name, lengthMm: 1, widthMm: 1, heightMm: 1, weightGrams: 0 });
      expect({ name, status: odd.statusCode, fields: Object.keys(fieldsOf(odd)) }).toEqual({
        name,
        status: 400,
        fields: ['name'],
      });
    }

    const twin = await admin('POST', '/packagings', {
      name: 'TABLA BOX',
      lengthMm: 1,
      widthMm: 1,
      heightMm: 1,
      weightGrams: 0,
    });
    expect(twin.statusCode).toBe(409);

    const edited = await admin('PUT', `/packagings/${box.id}`, {
      name: 'Tabla box',
      lengthMm: 460,
      widthMm: 450,
      heightMm: 350,
      weightGrams: 950,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ lengthMm: 460, weightGrams: 950 });

    const product = await admin(
      'POST',
      '/products',
      productInput(type.id, brand.id, {
        sizes: [
          {
            sizeName: 'Pair',
            priceWithoutDiscount: 30_000,
            priceReduction: 0,
            stock: 2,
            parcel: { weightGrams: 6500, packagingId: box.id },
          },
        ],
      }),
    );
    expect(product.statusCode, product.body).toBe(200);
    const inUse = await admin('DELETE', `/packagings/${box.id}`);
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().error.message).toMatch(/1 size/);
    const list = (await admin('GET', '/packagings')).json() as Packaging[];
    expect(list.find((p) => p.id === box.id)?.sizes).toBe(1);

    const spare = await packaging('Spare crate');
    expect((await admin('DELETE', `/packagings/${spare.id}`)).statusCode).toBe(204);
    expect(((await admin('GET', '/packagings')).json() as Packaging[]).map((p) => p.id)).not.toContain(spare.id);
  });

  it("keeps each size's weight and box, keeps them when an edit leaves them out, and names bad ones", async () => {
    const crate = await packaging('Harmonium crate', { lengthMm: 600, widthMm: 400, heightMm: 450, weightGrams: 2500 });
    const created = await admin(
      'POST',
      '/products',
      productInput(type.id, brand.id, {
        sizes: [
          {
            sizeName: '3 octave',
            priceWithoutDiscount: 40_000,
            priceReduction: 0,
            stock: 1,
            parcel: { weightGrams: 9000, packagingId: crate.id },
          },
          {
            sizeName: 'Bag',
            priceWithoutDiscount: 2_000,
            priceReduction: 0,
            stock: 4,
            parcel: { weightGrams: 400, lengthMm: 300, widthMm: 200, heightMm: 50 },
          },
          { sizeName: 'Unweighed', priceWithoutDiscount: 1_000, priceReduction: 0, stock: 4 },
        ],
      }),
    );
    expect(created.statusCode, created.body).toBe(200);
    const product = created.json() as ProductDetail;
    expect(product.sizes.map((size) => size.parcel)).toEqual([
      { weightGrams: 9000, packagingId: crate.id, lengthMm: null, widthMm: null, heightMm: null },
      { weightGrams: 400, packagingId: null, lengthMm: 300, widthMm: 200, heightMm: 50 },
      { weightGrams: null, packagingId: null, lengthMm: null, widthMm: null, heightMm: null },
    ]);

    // An edit that does not send a size's parcel facts (an older form, a price change) keeps them.
    const { sizes } = product;
    const kept = await admin('PUT', `/products/${product.id}`, {
      ...productInput(type.id, brand.id, { title: product.title, urlKey: product.urlKey }),
      sizes: sizes.map((size) => ({
        id: size.id,
        sizeName: size.sizeName,
        priceWithoutDiscount: size.priceWithoutDiscount + 100,
        priceReduction: 0,
      })),
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect((kept.json() as ProductDetail).sizes.map((size) => size.parcel.weightGrams)).toEqual([9000, 400, null]);

    const bad = await admin('PUT', `/products/${product.id}`, {
      ...productInput(type.id, brand.id, { title: product.title, urlKey: product.urlKey }),
      sizes: [
        {
          id: sizes[0]!.id,
          sizeName: '3 octave',
          priceWithoutDiscount: 1,
          priceReduction: 0,
          parcel: { weightGrams: 0, packagingId: crate.id, lengthMm: 10, widthMm: 10, heightMm: 10 },
        },
        {
          id: sizes[1]!.id,
          sizeName: 'Bag',
          priceWithoutDiscount: 1,
          priceReduction: 0,
          parcel: { weightGrams: 31_000, lengthMm: 10 },
        },
        {
          id: sizes[2]!.id,
          sizeName: 'Unweighed',
          priceWithoutDiscount: 1,
          priceReduction: 0,
          parcel: { packagingId: 999_999 },
        },
      ],
    });
    expect(bad.statusCode).toBe(400);
    const fields = fieldsOf(bad);
    expect(fields).toMatchObject({
      'sizes.0.parcel.weightGrams': expect.stringMatching(/at least 1 g/),
      'sizes.0.parcel.lengthMm': 'Give either a packaging or its own dimensions, not both',
      'sizes.1.parcel.weightGrams': 'At most 30 kg',
      'sizes.1.parcel.widthMm': 'Please give all three dimensions, or none',
    });
    const unknown = await admin('PUT', `/products/${product.id}`, {
      ...productInput(type.id, brand.id, { title: product.title, urlKey: product.urlKey }),
      sizes: sizes.map((size, index) => ({
        id: size.id,
        sizeName: size.sizeName,
        priceWithoutDiscount: 1,
        priceReduction: 0,
        ...(index === 2 ? { parcel: { weightGrams: 10, packagingId: 999_999 } } : {}),
      })),
    });
    expect(unknown.statusCode).toBe(400);
    expect(fieldsOf(unknown)).toEqual({ 'sizes.2.parcel.packagingId': 'There is no such packaging' });
  });

  it('maps a delivery method to a carrier service and its package format, or to none', async () => {
    const method = {
      countryId: 1,
      name: 'Tracked next day',
      rate: 695,
      minItemsTotal: null,
      maxItemsTotal: null,
      active: true,
      labels: { service: 'tracked24', packageFormat: 'parcel' },
    };
    const created = await admin('POST', '/delivery-methods', method);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json().labels).toEqual({ service: 'tracked24', packageFormat: 'parcel' });
    const id = created.json().id as number;

    // Left out on an edit, the mapping stays; null takes it away.
    const renamed = await admin('PUT', `/delivery-methods/${id}`, { ...method, labels: undefined, name: 'Tracked 24' });
    expect(renamed.json().labels).toEqual({ service: 'tracked24', packageFormat: 'parcel' });
    const none = await admin('PUT', `/delivery-methods/${id}`, { ...method, labels: null });
    expect(none.json().labels).toBeNull();

    const bad = await admin('PUT', `/delivery-methods/${id}`, {
      ...method,
      labels: { service: 'pigeon', packageFormat: 'crate' },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(fieldsOf(bad)).sort()).toEqual(['labels.packageFormat', 'labels.service']);
  });
});
