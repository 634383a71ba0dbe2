import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema, pricedBasketSchema } from '../../contract/basket.ts';
import { errorCodes, refusalMessages } from '../../contract/error-codes.ts';
import { commitBody, type checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import {
  approvedPaypalReturn,
  declinedThroughOpayo,
  orderRow,
  paidThroughOpayo,
  placeOrder,
  shopForPayments,
} from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';

/**
 * A basket restored after a declined card keeps its order's code (BACK TO CART). When that order is
 * then paid elsewhere (its recovery link opened on another device), the basket must not buy the
 * same goods again unawares (issue 32): verify-basket says which order was paid, and a commit is
 * refused with 409 ORDER_ALREADY_PAID, writing nothing.
 */
describe('a basket restored from an order that has been paid since', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    ({ t, fx } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo' }, injectedPaypal()));
  });
  afterAll(() => t.close());

  const orderCount = async () =>
    Number(
      (
        await t.db.kysely
          .selectFrom('orders')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** 2 units ordered, the card declined, and the basket restored from the order: as BACK TO CART leaves it. */
  async function restoredBasket() {
    const p = await fx.product(2500, 10);
    const order = await placeOrder(t, p.stockId, 2);
    await declinedThroughOpayo(t, order);
    expect((await orderRow(t, order.orderNumber)).status).toBe('payment_failed');
    const basket = commitBody([{ productStockId: p.stockId, requestedQty: 2 }], { orderCode: order.orderCode });
    return { p, order, basket };
  }

  it('is told by verify-basket which order was paid; unpaid, it is told nothing', async () => {
    const { order, basket } = await restoredBasket();
    const unpaid = await t.app.inject({ method: 'POST', url: '/api/verify-basket', payload: basket });
    expect(unpaid.statusCode, unpaid.body).toBe(200);
    expect(pricedBasketSchema.parse(unpaid.json()).paidOrderNumber).toBeNull();

    // Paid through the recovery link on another device: the same order, paid by card.
    await paidThroughOpayo(t, order);
    expect((await orderRow(t, order.orderNumber)).status).toBe('paid');
    const paid = await t.app.inject({ method: 'POST', url: '/api/verify-basket', payload: basket });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(pricedBasketSchema.parse(paid.json()).paidOrderNumber).toBe(order.orderNumber);
  });

  it('is refused at commit with a 409 saying the order is paid, placing no second order and taking no stock', async () => {
    const { p, order, basket } = await restoredBasket();
    await paidThroughOpayo(t, order);
    const stockBefore = await fx.stockOf(p.stockId);
    const ordersBefore = await orderCount();

    const refused = await t.app.inject({ method: 'POST', url: '/api/basket', payload: basket });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error).toEqual({
      code: errorCodes.orderAlreadyPaid,
      message: refusalMessages.orderAlreadyPaid,
    });
    expect(await orderCount()).toBe(ordersBefore);
    expect(await fx.stockOf(p.stockId)).toBe(stockBefore);
    expect((await orderRow(t, order.orderNumber)).status).toBe('paid');

    // A basket without the paid order's code is a new purchase, and is taken.
    const { orderCode: _paid, ...fresh } = basket;
    const again = commitResponseSchema.parse(
      (await t.app.inject({ method: 'POST', url: '/api/basket', payload: fresh })).json(),
    );
    expect(again.ok).toBe(true);
  });

  it('still replaces its order while that order is unpaid', async () => {
    const { order, basket } = await restoredBasket();
    const replaced = commitResponseSchema.parse(
      (await t.app.inject({ method: 'POST', url: '/api/basket', payload: basket })).json(),
    );
    expect(replaced.ok).toBe(true);
    expect((await orderRow(t, order.orderNumber)).status).toBe('cancelled');
  });
});

/**
 * An outside attack on the rule above (issue 32): what a client that is not the order's shopper
 * learns or does with an order's code through verify-basket and the commit. The code is the order's
 * key (as for GET /api/order-status), so these pin that a code tells no more than that.
 */
describe('order codes sent to verify-basket and the commit by a stranger', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    ({ t, fx } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo' }, injectedPaypal()));
  });
  afterAll(() => t.close());

  const verify = (payload: object) => t.app.inject({ method: 'POST', url: '/api/verify-basket', payload });

  it("answers an unknown code as a basket without one, and another shopper's unpaid order's code without naming it", async () => {
    const p = await fx.product(2500, 10);
    const theirs = await placeOrder(t, p.stockId, 2);
    await declinedThroughOpayo(t, theirs);
    const items = [{ productStockId: p.stockId, requestedQty: 1 }];

    const without = await verify({ items });
    expect(without.statusCode, without.body).toBe(200);
    const unknown = await verify({ items, orderCode: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknown.statusCode, unknown.body).toBe(200);
    expect(unknown.json()).toEqual(without.json());

    // Their order's held units count as available to its code (as GET /api/recover-basket shows
    // them to it), but nothing names or numbers the order.
    const withTheirs = pricedBasketSchema.parse((await verify({ items, orderCode: theirs.orderCode })).json());
    expect(withTheirs).toMatchObject({ orderNumber: null, orderCode: null, paidOrderNumber: null });
  });

  it('refuses a malformed orderCode with a 400 naming it, on verify-basket and on the commit', async () => {
    const p = await fx.product(2500, 10);
    const items = [{ productStockId: p.stockId, requestedQty: 1 }];
    const bad = [
      123,
      ['AAAAAAAAAAAAAAAAAAAAAA'],
      {},
      'short',
      'A'.repeat(65),
      'AAAAAAAAAAAAAAAAAAAAÄÄ',
      "' OR 1=1 --AAAAAAAAAA",
    ];
    for (const orderCode of bad) {
      for (const [url, payload] of [
        ['/api/verify-basket', { items, orderCode }],
        ['/api/basket', commitBody(items, { orderCode: orderCode as string })],
      ] as const) {
        const answer = await t.app.inject({ method: 'POST', url, payload });
        expect(answer.statusCode, `${url} ${JSON.stringify(orderCode)}: ${answer.body}`).toBe(400);
        expect(answer.json().error.fields.map((f: { field: string }) => f.field)).toEqual(['orderCode']);
      }
    }
  });

  it("refuses a paid order's code before the basket's stock or total is looked at, telling nothing more", async () => {
    const p = await fx.product(2500, 10);
    const order = await placeOrder(t, p.stockId, 1);
    await paidThroughOpayo(t, order);
    const stockBefore = await fx.stockOf(p.stockId);
    const basket = commitBody([{ productStockId: p.stockId, requestedQty: 9999 }], {
      orderCode: order.orderCode,
      totalPriceIncludingDelivery: 1,
    });
    const refused = await t.app.inject({ method: 'POST', url: '/api/basket', payload: basket });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json()).toEqual({
      error: { code: errorCodes.orderAlreadyPaid, message: refusalMessages.orderAlreadyPaid },
    });
    expect(await fx.stockOf(p.stockId)).toBe(stockBefore);
  });
});

/**
 * The same basket, paid by the order it replaced (found by an outside attack): the shopper's PayPal
 * approval of the first order is still open on another device when the restored basket is committed
 * again, replacing that order. Paying the open approval then pays the replaced order; the
 * replacement must not be bought too.
 */
describe('a basket whose order was replaced, and the replaced order paid after all', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    ({ t, fx } = await shopForPayments({ PAYPAL_INTEGRATION: 'checkout' }, injectedPaypal()));
  });
  afterAll(() => t.close());

  it('is told which order was paid, refused at commit and at the payment handoff', async () => {
    const p = await fx.product(2500, 10);
    const first = await placeOrder(t, p.stockId, 2);
    // Approved at PayPal on another device, the shopper not yet back at the shop.
    const { returnUrl } = await approvedPaypalReturn(t, first.orderCode);
    // Meanwhile on this device the basket, still holding the first order's code, is committed again.
    const second = await placeOrder(t, p.stockId, 2, { orderCode: first.orderCode });
    expect(second.orderNumber).not.toBe(first.orderNumber);
    // Back from PayPal: the first order is captured and paid, late.
    await t.app.inject({ method: 'GET', url: returnUrl });
    expect((await orderRow(t, first.orderNumber)).status).toBe('paid');

    const basket = commitBody([{ productStockId: p.stockId, requestedQty: 2 }], { orderCode: second.orderCode });
    const verified = await t.app.inject({ method: 'POST', url: '/api/verify-basket', payload: basket });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(pricedBasketSchema.parse(verified.json()).paidOrderNumber).toBe(first.orderNumber);

    const stockBefore = await fx.stockOf(p.stockId);
    const committed = await t.app.inject({ method: 'POST', url: '/api/basket', payload: basket });
    expect(committed.statusCode, committed.body).toBe(409);
    expect(committed.json().error.code).toBe(errorCodes.orderAlreadyPaid);
    expect(await fx.stockOf(p.stockId)).toBe(stockBefore);

    // Nor can the replacement itself be paid: its handoff is refused, saying why.
    const handoff = await t.app.inject({ method: 'GET', url: `/api/payment-handoff/${second.orderCode}` });
    expect(handoff.statusCode, handoff.body).toBe(409);
    expect(handoff.json().error.code).toBe(errorCodes.orderAlreadyPaid);
  });
});
