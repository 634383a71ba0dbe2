import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { backOffice, paidThroughOpayo, placeOrder, shopForPayments } from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { makePicture, multipart } from '../../../test/helpers/photos.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

/**
 * Packing slips (docs/back-office.md#packing-slips): one order's, and one PDF of every paid order
 * waiting to be dispatched, a page each, oldest first; each with the order number as text and as
 * a barcode, where it goes and how, and the lines to pack (less units refunded back into stock)
 * with their pictures.
 */
describe('packing slips', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const opayo = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo' }, opayo));
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    backOffice(t, cookie).call(method, url, payload);

  async function pdfOf(url: string) {
    const answer = await admin('GET', url);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    const pdf = await getDocumentProxy(new Uint8Array(answer.rawPayload));
    const pages = await extractText(pdf, { mergePages: false });
    return { raw: answer.rawPayload.toString('latin1'), pages: pages.text, numPages: pdf.numPages };
  }

  async function paidOrder(lines: Array<{ stockId: number; quantity: number }>, extra = {}) {
    const committed = await placeOrder(t, lines[0]!.stockId, lines[0]!.quantity, {
      items: lines.map((line) => ({ productStockId: line.stockId, requestedQty: line.quantity })),
      ...extra,
    });
    await paidThroughOpayo(t, committed);
    return committed;
  }

  it('lists what to pack, with pictures, where it goes, and the order number as a barcode', async () => {
    const sitar = await fx.product(4500, 10);
    const body = multipart([
      { filename: 'sitar.png', contentType: 'image/png', bytes: await makePicture('png', 800, 600) },
    ]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/admin/products/${sitar.id}/photos`,
      headers: { ...body.headers, cookie },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const strings = await fx.product(1200, 10);
    const order = await paidOrder([
      { stockId: sitar.stockId, quantity: 1 },
      { stockId: strings.stockId, quantity: 3 },
    ]);

    const { pages, raw, numPages } = await pdfOf(`/orders/${order.orderNumber}/packing-slip`);
    expect(numPages).toBe(1);
    const [text] = pages;
    expect(text).toContain(`Packing slip: order ${order.orderNumber}`);
    expect(text).toContain(`Order number ${order.orderNumber}`);
    expect(text).toMatch(/Deliver to\s+Asha Kaur\s+12 Market Street\s+West Bromwich\s+B70 7NJ\s+United Kingdom/);
    expect(text).toContain('Delivery Express delivery');
    expect(text).toContain('0121 496 0000');
    expect(text).toMatch(new RegExp(`${sitar.title}\\s+Size: Size 1\\s+1`));
    expect(text).toMatch(new RegExp(`${strings.title}\\s+Size: Size 1\\s+3`));
    // The barcode and the one product picture there is, each named for assistive technology.
    expect(raw).toContain(`/Alt (Barcode of order number ${order.orderNumber})`);
    expect(raw).toContain(`/Alt (${sitar.title})`);
    expect(raw).not.toContain(`/Alt (${strings.title})`);
    expect(raw.match(/\/S \/Figure/g)?.length).toBe(2);
  });

  it('says an order collected from the shop is for the counter, not where to send it', async () => {
    await fx.collectionMethod(900_300, 'Collect from the Leicester shop');
    const harmonium = await fx.product(30_000, 5);
    const order = await paidOrder([{ stockId: harmonium.stockId, quantity: 1 }], { deliveryMethodRateId: 900_300 });
    const [text] = (await pdfOf(`/orders/${order.orderNumber}/packing-slip`)).pages;
    expect(text).toMatch(/To collect at the shop\s+Asha Kaur/);
    expect(text).toContain('Delivery Collect from the Leicester shop');
    expect(text).not.toContain('Deliver to');
    expect(text).not.toContain('12 Market Street');
  });

  it('prints one page for each order waiting to be dispatched, oldest first, less what was refunded', async () => {
    const drum = await fx.product(3000, 50);
    const waitingFirst = await paidOrder([{ stockId: drum.stockId, quantity: 2 }]);
    const dispatched = await paidOrder([{ stockId: drum.stockId, quantity: 1 }]);
    expect(
      (
        await admin('POST', `/orders/${dispatched.orderNumber}/dispatch`, {
          carrier: 'Royal Mail',
          trackingNumber: 'AB123456789GB',
        })
      ).statusCode,
    ).toBe(200);
    const refundedInFull = await paidOrder([{ stockId: drum.stockId, quantity: 1 }]);
    expect(
      (
        await admin('POST', `/orders/${refundedInFull.orderNumber}/refund`, {
          amount: 3995,
          reason: 'Changed their mind',
        })
      ).statusCode,
    ).toBe(200);
    const unpaid = await placeOrder(t, drum.stockId, 1);
    const waitingSecond = await paidOrder([{ stockId: drum.stockId, quantity: 2 }]);
    // One of its two units refunded and put back before it was sent: one is left to pack.
    const detail = await backOffice(t, cookie).order(waitingSecond.orderNumber);
    expect(
      (
        await admin('POST', `/orders/${waitingSecond.orderNumber}/refund`, {
          amount: 3000,
          reason: 'Only one wanted',
          restock: [{ lineId: detail.lines[0].id, quantity: 1 }],
        })
      ).statusCode,
    ).toBe(200);

    const { pages, numPages } = await pdfOf('/packing-slips');
    const orderNumbers = pages.map((page) => Number(/Packing slip: order (\d+)/.exec(page)?.[1]));
    expect(numPages).toBe(pages.length);
    expect(orderNumbers).toContain(waitingFirst.orderNumber);
    expect(orderNumbers).toContain(waitingSecond.orderNumber);
    for (const absent of [dispatched, refundedInFull, unpaid]) expect(orderNumbers).not.toContain(absent.orderNumber);
    expect(orderNumbers).toEqual([...orderNumbers].sort((a, b) => a - b));
    const second = pages[orderNumbers.indexOf(waitingSecond.orderNumber)];
    expect(second).toMatch(new RegExp(`${drum.title}\\s+Size: Size 1\\s+1\\b`));
  });

  it('is behind the staff sign-in, and says so when there is no such order', async () => {
    for (const url of ['/api/admin/packing-slips', '/api/admin/orders/100001/packing-slip'])
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await admin('GET', '/orders/999999/packing-slip')).statusCode).toBe(404);
  });

  it('has none for an order never paid, awaiting payment or cancelled: nothing is to be packed', async () => {
    const drum = await fx.product(2000, 10);
    const unpaid = await placeOrder(t, drum.stockId, 1);
    const cancelled = await placeOrder(t, drum.stockId, 1);
    expect((await admin('POST', `/orders/${cancelled.orderNumber}/cancel`, {})).statusCode).toBe(200);
    for (const order of [unpaid, cancelled]) {
      const answer = await admin('GET', `/orders/${order.orderNumber}/packing-slip`);
      expect(answer.statusCode, answer.body).toBe(404);
      expect(answer.json().error.message).toBe(`Order ${order.orderNumber} has nothing to pack: it has not been paid`);
    }
  });
});
