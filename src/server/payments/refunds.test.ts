import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { randomUUID } from 'node:crypto';
import { commitResponseSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { deliveredMail } from '../../../test/helpers/outbox.ts';
import { plainText } from '../mail/eml.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { encodeFields, encryptCrypt } from './opayo-crypt.ts';

/**
 * PayPal tells of a refund or a reversal (a chargeback) with an IPN whose mc_gross is negative; it
 * was once refused as a wrong amount, so refunds were never recorded. And a late `Failed` IPN, or a
 * failed card return, sent a customer who had paid a "payment did not go through" mail. A refunded
 * order stays paid (it was); what came back is its refunded_total, with one order_refunds row per
 * refund or reversal (docs/rules.md#payments).
 */
const BUSINESS = 'payments@raag-instruments.example';
const TOTAL = '34.95';

describe('refunds, reversals and late failures', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let verdict = 'VERIFIED';
  beforeAll(async () => {
    const paymentFetch = vi.fn(async () => new Response(verdict)) as unknown as typeof fetch;
    t = await createTestApp({ paymentFetch, env: { RATE_LIMIT_FACTOR: '100' } });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    verdict = 'VERIFIED';
  });

  async function paidOrder() {
    const p = await fx.product(2500, 5);
    const committed = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }]),
    });
    const result = commitResponseSchema.parse(committed.json());
    if (!result.ok) throw new Error('expected an order');
    const txn = `PAY${randomUUID().slice(0, 8).toUpperCase()}`;
    await ipn({ payment_status: 'Completed', txn_id: txn, mc_gross: TOTAL, invoice: String(result.orderNumber) });
    expect((await order(result.orderCode)).status).toBe('paid');
    return { ...result, txn };
  }
  const ipn = (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      payload: new URLSearchParams({ mc_currency: 'GBP', receiver_email: BUSINESS, ...fields }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const refund = (o: { orderNumber: number; txn: string }, status: string, gross: string, txn = `R${randomUUID()}`) =>
    ipn({
      payment_status: status,
      txn_id: txn.slice(0, 17),
      parent_txn_id: o.txn,
      mc_gross: gross,
      invoice: String(o.orderNumber),
    });
  const order = (code: string) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_code', '=', code).executeTakeFirstOrThrow();

  it('records a full refund once, however often PayPal sends it', async () => {
    const o = await paidOrder();
    const txn = 'REFUND00000000001';
    for (let i = 0; i < 3; i++) expect((await refund(o, 'Refunded', `-${TOTAL}`, txn)).statusCode).toBe(200);
    expect(await order(o.orderCode)).toMatchObject({
      status: 'paid',
      refunded_total: 3495,
      payment_status: 'Refunded',
    });
    const refunds = await t.db.kysely
      .selectFrom('order_refunds')
      .selectAll()
      .where('order_id', '=', (await order(o.orderCode)).id)
      .execute();
    expect(refunds).toMatchObject([{ kind: 'refund', amount: 3495, provider_reference: txn }]);
  });

  it('records partial refunds, up to the order total', async () => {
    const o = await paidOrder();
    await refund(o, 'Refunded', '-10.00');
    expect(await order(o.orderCode)).toMatchObject({ status: 'paid', refunded_total: 1000 });
    await refund(o, 'Refunded', '-24.95');
    expect(await order(o.orderCode)).toMatchObject({ status: 'paid', refunded_total: 3495 });
  });

  it('refuses a refund of more than is left, of another currency, or not verified by PayPal', async () => {
    const o = await paidOrder();
    await refund(o, 'Refunded', '-30.00');
    await refund(o, 'Refunded', '-5.00');
    await ipn({
      payment_status: 'Refunded',
      txn_id: 'REFUNDUSD00000001',
      parent_txn_id: o.txn,
      mc_gross: '-1.00',
      mc_currency: 'USD',
      invoice: String(o.orderNumber),
    });
    verdict = 'INVALID';
    await refund(o, 'Refunded', '-1.00');
    expect(await order(o.orderCode)).toMatchObject({ status: 'paid', refunded_total: 3000 });
  });

  it('records a reversal (a chargeback), and its cancellation puts the money back', async () => {
    const o = await paidOrder();
    await refund(o, 'Reversed', `-${TOTAL}`);
    expect(await order(o.orderCode)).toMatchObject({
      status: 'paid',
      refunded_total: 3495,
      payment_status: 'Reversed',
    });
    await refund(o, 'Canceled_Reversal', TOTAL);
    expect(await order(o.orderCode)).toMatchObject({
      status: 'paid',
      refunded_total: 0,
      payment_status: 'Canceled_Reversal',
    });
  });

  it('counts a refund once when staff record it and PayPal’s IPN reports it, whichever comes first', async () => {
    // Payments Standard has no refund call: staff refund in PayPal's pages and record it, as the
    // order page asks, and PayPal's IPN then reports the same refund.
    const { cookie } = await staffMember(t, 'staff');
    const record = (orderNumber: number, amount: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/orders/${orderNumber}/refund`,
        headers: { cookie },
        payload: { amount, reason: 'Refunded in PayPal' },
      });
    const refundsOf = async (code: string) =>
      (
        await t.db.kysely
          .selectFrom('order_refunds')
          .select('amount')
          .where('order_id', '=', (await order(code)).id)
          .execute()
      ).map((r) => r.amount);

    const staffFirst = await paidOrder();
    expect((await record(staffFirst.orderNumber, 1000)).statusCode).toBe(200);
    await refund(staffFirst, 'Refunded', '-10.00');
    expect((await order(staffFirst.orderCode)).refunded_total).toBe(1000);
    expect(await refundsOf(staffFirst.orderCode)).toEqual([1000]);

    const paypalFirst = await paidOrder();
    await refund(paypalFirst, 'Refunded', '-10.00');
    expect((await record(paypalFirst.orderNumber, 1000)).statusCode).toBe(200);
    expect((await order(paypalFirst.orderCode)).refunded_total).toBe(1000);
    expect(await refundsOf(paypalFirst.orderCode)).toEqual([1000]);
    // A second refund of the same amount is a refund of its own, again counted once.
    expect((await record(paypalFirst.orderNumber, 1000)).statusCode).toBe(200);
    await refund(paypalFirst, 'Refunded', '-10.00');
    expect((await order(paypalFirst.orderCode)).refunded_total).toBe(2000);
    expect(await refundsOf(paypalFirst.orderCode)).toEqual([1000, 1000]);
  });

  it('e-mails the customer once per refund: the amount, how it goes back, its credit note and the order page', async () => {
    const { cookie } = await staffMember(t, 'staff');
    const o = await paidOrder();
    const txn = 'REFUND00000000002';
    // PayPal's IPN reports it three times; staff record it too: one refund, one e-mail.
    for (let i = 0; i < 3; i++) await refund(o, 'Refunded', '-10.00', txn);
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${o.orderNumber}/refund`,
      headers: { cookie },
      payload: { amount: 1000, reason: 'Refunded in PayPal' },
    });
    // A second refund, made outside PayPal and recorded by staff: its own e-mail.
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/orders/${o.orderNumber}/refund`,
      headers: { cookie },
      payload: { amount: 500, reason: 'Goodwill' },
    });
    const mail = (await deliveredMail(t))
      .filter((m) => m.subject === `Your refund for order ${o.orderNumber}`)
      .map((m) => plainText(m.raw));
    expect(mail).toHaveLength(2);
    const text = mail.find((m) => m.includes('£10.00'))!;
    expect(mail.find((m) => m.includes('We have refunded £5.00'))).toContain('We made it to you ourselves');
    expect(text).toContain(`We have refunded £10.00 for your order ${o.orderNumber}`);
    expect(text).toContain('It goes back to your PayPal account');
    expect(text).toMatch(new RegExp(`/api/documents/credit-note/\\d+/[\\w-]+`));
    expect(text).toMatch(new RegExp(`/order/${o.orderNumber}\\.[\\w-]{43}`));
  });

  it('sends no "did not go through" mail, and keeps the order paid, when a failure arrives after payment', async () => {
    const o = await paidOrder();
    await ipn({ payment_status: 'Failed', txn_id: `F${o.txn}`, mc_gross: TOTAL, invoice: String(o.orderNumber) });
    const crypt = encryptCrypt(
      encodeFields([
        ['VendorTxCode', `RAAG-${o.orderNumber}-0123456789ab`],
        ['VPSTxId', `{${randomUUID().toUpperCase()}}`],
        ['Status', 'NOTAUTHED'],
        ['Amount', TOTAL],
      ]),
      t.config.opayo.encryptionPassword,
    );
    await t.app.inject({ method: 'GET', url: `/api/payments/opayo/return?crypt=${encodeURIComponent(crypt)}` });
    expect((await order(o.orderCode)).status).toBe('paid');
    const mail = await deliveredMail(t);
    expect(mail.filter((m) => m.subject === `Your order ${o.orderNumber} is confirmed`)).toHaveLength(1);
    expect(mail.filter((m) => m.subject === `Your payment for order ${o.orderNumber} did not go through`)).toEqual([]);
  });
});
