import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../contract/admin/orders.ts';
import type { AdminReturn } from '../../contract/returns.ts';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { TEST_SESSION_SECRET } from '../../../test/helpers/csrf.ts';
import {
  backOffice,
  orderRow as storedOrder,
  paidThroughOpayo,
  placeOrder,
  shopForPayments,
} from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { createOrderLinks } from '../orders/order-links.ts';
import { createOrdersAdminService } from '../orders/orders.admin-service.ts';
import { createPaymentsService } from '../payments/payments.service.ts';

/**
 * A return's refund the provider never confirmed (docs/rules.md#returns): the amount stays reserved
 * until the sweep learns what became of it, so the return stays claimed; refunding it again would
 * reserve and send a second amount.
 */
describe('a return refunded through a provider that does not answer', () => {
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

  it('keeps the return claimed, so a second refund is refused and nothing is sent twice', async () => {
    // 2 × £25 paid by card in the Opayo sandbox, dispatched; one unit comes back.
    const p = await fx.product(2500, 10);
    const committed = await placeOrder(t, p.stockId, 2);
    await paidThroughOpayo(t, committed);
    const { orderNumber } = committed;
    const order = await storedOrder(t, orderNumber);
    expect(order.status).toBe('paid');
    const sent = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const lines = ((await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail).lines;

    const key = createOrderLinks(t.config.sessionSecret ?? TEST_SESSION_SECRET).keyOf(orderNumber, 1);
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/order-page/${key}/returns`,
      payload: { reason: 'changed_mind', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const queue = (await admin('GET', '/returns')).json().returns as AdminReturn[];
    const mine = queue.find((r) => r.raNumber === asked.json().raNumber)!;
    expect((await admin('POST', `/returns/${mine.id}/authorise`)).statusCode).toBe(200);
    const received = await admin('POST', `/returns/${mine.id}/receive`, {
      lines: [{ orderLineId: lines[0]!.id, restock: 0, condition: 'as_new' }],
    });
    expect(received.statusCode, received.body).toBe(200);

    // The payment's look-up is answered; the refund and the look-up after it are not.
    let calls = 0;
    opayo.state.intercept = async (_url, _init, forward) => {
      calls += 1;
      if (calls === 1) return forward();
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    const unconfirmed = await admin('POST', `/returns/${mine.id}/refund`, {});
    expect(unconfirmed.statusCode).toBe(409);
    expect(unconfirmed.json().error.message).toContain('did not confirm the refund');
    expect((await storedOrder(t, orderNumber)).refunded_total).toBe(2500);

    // Opayo answers again: staff click Refund a second time.
    opayo.state.intercept = undefined;
    const again = await admin('POST', `/returns/${mine.id}/refund`, {});
    expect(again.statusCode, again.body).toBe(409);
    expect((await storedOrder(t, orderNumber)).refunded_total).toBe(2500);
    const requests = await t.db.kysely
      .selectFrom('refund_requests')
      .select(['status', 'amount'])
      .where('order_id', '=', order.id)
      .execute();
    expect(requests).toEqual([{ status: 'pending', amount: 2500 }]);
    // Audited as unconfirmed; the shopper is not told it is refunded.
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('entity_type', '=', 'return')
      .where('entity_id', '=', mine.raNumber)
      .execute();
    expect(audit.map((entry) => entry.action)).toEqual([
      'return.request',
      'return.authorise',
      'return.receive',
      'return.refund',
    ]);
    expect(JSON.parse(audit[3]!.after!)).toMatchObject({ status: 'refunded', amount: 2500, confirmed: false });
    const subjects = await t.db.kysely.selectFrom('mail_queue').select('subject').execute();
    expect(subjects.map((mail) => mail.subject)).not.toContain(`Your return ${mine.raNumber} is refunded`);
    expect((await admin('GET', `/returns/${mine.id}`)).json()).toMatchObject({
      status: 'refunded',
      refundAmount: 2500,
    });
  });

  /** The sweep of refunds never confirmed, as the back office runs it, eleven minutes on. */
  const sweepLater = () =>
    createOrdersAdminService(t.db.kysely, {
      now: () => new Date(Date.now() + 11 * 60_000),
      providerOf: createPaymentsService(t.db.kysely, t.config, { fetch: opayo.fetch }).providerOf,
      releasedRefunds: { shopEmail: async () => t.config.ordersEmail, publicUrl: t.config.publicUrl },
    }).settleUnconfirmedRefunds();

  it('gives a return back to staff as received when the sweep learns its refund was never made', async () => {
    const p = await fx.product(2500, 10);
    const committed = await placeOrder(t, p.stockId, 1);
    await paidThroughOpayo(t, committed);
    const { orderNumber } = committed;
    const order = await storedOrder(t, orderNumber);
    expect(
      (await admin('POST', `/orders/${orderNumber}/dispatch`, { untracked: { service: 'Royal Mail 1st Class' } }))
        .statusCode,
    ).toBe(200);
    const lines = ((await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail).lines;
    const key = createOrderLinks(t.config.sessionSecret ?? TEST_SESSION_SECRET).keyOf(orderNumber, 1);
    const asked = await t.app.inject({
      method: 'POST',
      url: `/api/order-page/${key}/returns`,
      payload: { reason: 'faulty', lines: [{ orderLineId: lines[0]!.id, quantity: 1 }] },
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const raNumber = asked.json().raNumber as string;
    const mine = ((await admin('GET', '/returns')).json().returns as AdminReturn[]).find(
      (r) => r.raNumber === raNumber,
    )!;
    expect((await admin('POST', `/returns/${mine.id}/authorise`)).statusCode).toBe(200);
    expect(
      (
        await admin('POST', `/returns/${mine.id}/receive`, {
          lines: [{ orderLineId: lines[0]!.id, restock: 1, condition: 'as_new' }],
        })
      ).statusCode,
    ).toBe(200);

    // The payment's look-up is answered; the refund never reaches Opayo, and its look-up goes unanswered.
    let calls = 0;
    opayo.state.intercept = async (_url, _init, forward) => {
      calls += 1;
      if (calls === 1) return forward();
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    expect((await admin('POST', `/returns/${mine.id}/refund`, {})).statusCode).toBe(409);
    opayo.state.intercept = undefined;
    expect((await admin('GET', `/returns/${mine.id}`)).json()).toMatchObject({ status: 'refunded' });

    // Opayo has no record of it: the sweep gives the amount back, and the return to staff.
    await sweepLater();
    await sweepLater();
    expect((await storedOrder(t, orderNumber)).refunded_total).toBe(0);
    expect((await admin('GET', `/returns/${mine.id}`)).json()).toMatchObject({
      status: 'received',
      refundAmount: null,
    });
    const audit = await t.db.kysely
      .selectFrom('audit_log')
      .select('action')
      .where('entity_type', '=', 'return')
      .where('entity_id', '=', raNumber)
      .execute();
    expect(audit.map((entry) => entry.action).filter((action) => action === 'return.refund-released')).toHaveLength(1);
    const toShop = await t.db.kysely
      .selectFrom('mail_queue')
      .select('subject')
      .where('recipient', '=', t.config.ordersEmail)
      .execute();
    expect(toShop.map((mail) => mail.subject)).toContain(
      `Return ${raNumber}: the refund was not made, refund it again`,
    );

    // Staff refund it again: this time it goes through, once, with the unit back in stock.
    const again = await admin('POST', `/returns/${mine.id}/refund`, {});
    expect(again.statusCode, again.body).toBe(200);
    const refunded = (again.json() as AdminReturn).refundAmount!;
    expect(refunded).toBeGreaterThan(2500);
    expect((await storedOrder(t, orderNumber)).refunded_total).toBe(refunded);
    const requests = await t.db.kysely
      .selectFrom('refund_requests')
      .select(['status', 'amount'])
      .where('order_id', '=', order.id)
      .orderBy('id')
      .execute();
    expect(requests).toEqual([
      { status: 'refused', amount: refunded },
      { status: 'refunded', amount: refunded },
    ]);
    expect(await fx.stockOf(p.stockId)).toBe(10);
  });
});
