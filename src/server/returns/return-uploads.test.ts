import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import type { AdminReturn } from '../../contract/returns.ts';
import type { OrderDetail } from '../../contract/admin/orders.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { manualClock } from '../../../test/helpers/clock.ts';
import { TEST_SESSION_SECRET } from '../../../test/helpers/csrf.ts';
import { makePicture, multipart, type FilePart } from '../../../test/helpers/photos.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { markOrderPaid } from '../orders/order-lifecycle.ts';
import { createOrderLinks } from '../orders/order-links.ts';

/**
 * What a shopper sends with a return (docs/rules.md#returns), as an outside attack sent it: a
 * multipart body without its boundary or cut short is a 400 naming the fault, and a photo is kept
 * only as a picture re-encoded from its pixels, never as the bytes that came.
 */
describe('return uploads', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  let orderCount = 0;
  const clock = manualClock(Date.parse('2026-06-01T12:00:00.000Z'));
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, now: clock.now });
    fx = await checkoutFixtures(t.db);
    ({ cookie } = await staffMember(t, 'staff'));
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });

  /** A paid order of one line, dispatched a day ago: its page's key and its line. */
  async function dispatchedOrder() {
    const product = await fx.product(2500, 10);
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: product.stockId, requestedQty: 1 }], {
        guest: { ...guest, email: `uploads${++orderCount}.${Date.now()}@example.com` },
      }),
      remoteAddress: `10.8.${orderCount % 250}.${(orderCount * 7) % 250}`,
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error(`expected an order: ${committed.body}`);
    const order = await t.db.kysely
      .selectFrom('orders')
      .selectAll()
      .where('order_number', '=', result.orderNumber)
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .transaction()
      .execute((trx) =>
        markOrderPaid(
          trx,
          order,
          { provider: 'paypal', providerStatus: 'Completed', transactionId: `TXU${result.orderNumber}` },
          new Date(clock.now()).toISOString(),
        ),
      );
    const sent = await admin('POST', `/orders/${result.orderNumber}/dispatch`, {
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const lines = ((await admin('GET', `/orders/${result.orderNumber}`)).json() as OrderDetail).lines;
    const key = createOrderLinks(t.config.sessionSecret ?? TEST_SESSION_SECRET).keyOf(result.orderNumber, 1);
    return { key, orderNumber: result.orderNumber, line: lines[0]! };
  }

  /** A damaged-goods return's multipart body with these photos. */
  const returnBody = (lineId: number, photos: FilePart[]) => {
    const body = multipart(photos.map((photo) => ({ ...photo, field: 'photo' })));
    const fields = Object.entries({
      reason: 'damaged_in_transit',
      note: 'Cracked',
      lines: JSON.stringify([{ orderLineId: lineId, quantity: 1 }]),
    })
      .map(
        ([name, value]) =>
          `--${boundaryOf(body.headers)}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      )
      .join('');
    return { headers: body.headers, payload: Buffer.concat([Buffer.from(fields), body.payload]) };
  };
  const boundaryOf = (headers: Record<string, string>) => /boundary=(.+)$/.exec(headers['content-type']!)![1]!;
  const post = (key: string, headers: Record<string, string>, payload: string | Buffer) =>
    t.app.inject({ method: 'POST', url: `/api/order-page/${key}/returns`, headers, payload });

  it('answers a multipart body without its boundary with a 400 naming the fault', async () => {
    const { key } = await dispatchedOrder();
    const answer = await post(key, { 'content-type': 'multipart/form-data' }, 'reason=damaged');
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.message).toMatch(/boundary/i);
  });

  it('answers a multipart body cut short before its closing boundary with a 400 naming the fault', async () => {
    const { key, line } = await dispatchedOrder();
    const body = returnBody(line.id, [
      { filename: 'crack.jpg', contentType: 'image/jpeg', bytes: await makePicture('jpeg', 64, 64) },
    ]);
    const cut = body.payload.subarray(0, body.payload.length - 40);
    const answer = await post(key, body.headers, cut);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.message).toMatch(/cut short|end/i);
  });

  it('refuses a photo that only begins like a JPEG, naming it', async () => {
    const { key, line } = await dispatchedOrder();
    const fake = Buffer.concat([
      Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
      Buffer.from('<html><script>alert(document.cookie)</script></html>'),
    ]);
    const body = returnBody(line.id, [{ filename: 'crack.jpg', contentType: 'image/jpeg', bytes: fake }]);
    const answer = await post(key, body.headers, body.payload);
    expect(answer.statusCode, answer.body).toBe(400);
    expect(answer.json().error.message).toMatch(/^crack\.jpg: /);
  });

  it('keeps a photo re-encoded from its pixels, upright, without its metadata or what was stuck on after it', async () => {
    const { key, line, orderNumber } = await dispatchedOrder();
    const picture = await makePicture('jpeg', 80, 40, { exif: true, orientation: 6 });
    const tail = Buffer.from('<html><script>alert(1)</script></html>');
    const body = returnBody(line.id, [
      { filename: 'crack.jpg', contentType: 'image/jpeg', bytes: Buffer.concat([picture, tail]) },
      { filename: 'box.png', contentType: 'image/png', bytes: await makePicture('png', 30, 20) },
    ]);
    const answer = await post(key, body.headers, body.payload);
    expect(answer.statusCode, answer.body).toBe(201);
    const mine = await t.db.kysely
      .selectFrom('returns')
      .innerJoin('orders', 'orders.id', 'returns.order_id')
      .select('returns.id')
      .where('orders.order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    const one = (await admin('GET', `/returns/${mine.id}`)).json() as AdminReturn;
    expect(one.photos).toHaveLength(2);
    const first = await admin('GET', `/returns/${mine.id}/photos/${one.photos[0]}`);
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(first.rawPayload.includes(tail)).toBe(false);
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 40, height: 80 });
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    const second = await admin('GET', `/returns/${mine.id}/photos/${one.photos[1]}`);
    expect(second.headers['content-type']).toBe('image/png');
    expect(await sharp(second.rawPayload).metadata()).toMatchObject({ format: 'png', width: 30, height: 20 });
  });
});
