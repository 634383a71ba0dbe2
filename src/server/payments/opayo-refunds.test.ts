import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import {
  backOffice,
  orderRow as storedOrder,
  placeOrder,
  shopForPayments,
  paidThroughOpayo,
} from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { LOCAL_OPAYO_ADMIN } from '../config.ts';
import { packingSlipsOf } from '../orders/order-documents.ts';
import { createOrdersAdminService } from '../orders/orders.admin-service.ts';
import { createPaymentsService } from './payments.service.ts';
import { readVspaccess, reportingElements, reportingSignature } from './providers/opayo-form/opayo-admin-api.ts';

/**
 * Refunds of Opayo Form payments through Opayo (ADR 0014): the payment's security key read with
 * the Reporting API's getTransactionDetail, then a REFUND, recorded with the refund's VPSTxId. The
 * amount is reserved before Opayo is asked, so more than is left is refused without a call and two
 * refunds at once never send back more than was paid; a refusal, or a call that gets no answer and
 * whose refund Opayo has no record of, gives the reservation back and records nothing.
 */
const VPS_TX_ID = /^\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\}$/;
const REFUND_PATH = '/sandbox/opayo/gateway/service/refund.vsp';
const REPORTING_PATH = '/sandbox/opayo/access/access.htm';
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('refunds through Opayo', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  // The in-process fetch the PayPal Checkout tests use: the shop's calls reach its own sandbox.
  const opayo = injectedPaypal();
  let refundCalls = 0;
  let lookUps = 0;

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo' }, opayo));
  });
  afterAll(() => t.close());
  beforeEach(() => {
    refundCalls = 0;
    lookUps = 0;
    opayo.state.intercept = async (url, _init, forward) => {
      if (url.endsWith(REFUND_PATH)) refundCalls += 1;
      if (url.endsWith(REPORTING_PATH)) lookUps += 1;
      return forward();
    };
  });

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    backOffice(t, cookie).call(method, url, payload);
  const orderRow = (orderNumber: number) => storedOrder(t, orderNumber);
  const requestsOf = async (orderId: number) =>
    (await t.db.kysely.selectFrom('refund_requests').select('status').where('order_id', '=', orderId).execute()).map(
      (r) => r.status,
    );

  /** An order of 2 units at £25 with express delivery (£59.95), paid by card in the Opayo sandbox. */
  async function paidOrder() {
    const p = await fx.product(2500, 10);
    const committed = await placeOrder(t, p.stockId, 2);
    await paidThroughOpayo(t, committed);
    const row = await orderRow(committed.orderNumber);
    expect(row.status).toBe('paid');
    expect(row.transaction_id).toMatch(VPS_TX_ID);
    return { ...committed, row };
  }

  it('refunds part, then the rest, through Opayo, each recorded with the refund’s VPSTxId', async () => {
    const { orderNumber, row } = await paidOrder();
    const detail = await admin('GET', `/orders/${orderNumber}`);
    expect(detail.json()).toMatchObject({ refundsThrough: 'provider', actions: expect.arrayContaining(['refund']) });

    const first = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1000,
      reason: 'One arrived scratched',
      restock: [{ lineId: detail.json().lines[0].id, quantity: 1 }],
    });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      refundedTotal: 1000,
      refunds: [{ kind: 'refund', amount: 1000, provider: 'opayo', reference: expect.stringMatching(VPS_TX_ID) }],
      lines: [expect.objectContaining({ restocked: 1 })],
    });

    const rest = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 4995, reason: 'Returned' });
    expect(rest.statusCode).toBe(200);
    expect(rest.json()).toMatchObject({ refundedTotal: 5995, actions: [] });
    const references = rest.json().refunds.map((r: { reference: string }) => r.reference);
    expect(references).toHaveLength(2);
    expect(new Set(references).size).toBe(2);
    expect(references).not.toContain(row.transaction_id);
    expect(refundCalls).toBe(2);
    expect(lookUps).toBe(2);
    expect(await requestsOf(row.id)).toEqual(['refunded', 'refunded']);
    // The audit log reads each refund's total before it and after it, as it was at the time.
    const refundsAudited = (rest.json().audit as Array<{ action: string; before: object; after: object }>)
      .filter((entry) => entry.action === 'order.refund')
      .map((entry) => [entry.before, entry.after]);
    expect(refundsAudited).toEqual(
      expect.arrayContaining([
        [expect.objectContaining({ refundedTotal: 0 }), expect.objectContaining({ refundedTotal: 1000, amount: 1000 })],
        [
          expect.objectContaining({ refundedTotal: 1000 }),
          expect.objectContaining({ refundedTotal: 5995, amount: 4995 }),
        ],
      ]),
    );
    expect(refundsAudited).toHaveLength(2);

    // The sandbox has both against the payment, and answers for them in the Reporting API.
    const activity = await t.app.inject({ method: 'GET', url: '/sandbox/opayo/activity' });
    expect(activity.body).toContain(`Refund ${references[0]}</td><td>Order ${orderNumber}</td><td>-£10.00`);
    expect(activity.body).toContain(`Refund ${references[1]}</td><td>Order ${orderNumber}</td><td>-£49.95`);
  });

  it('refuses more than is left without asking Opayo, also for two refunds at once', async () => {
    const { orderNumber, row } = await paidOrder();
    const tooMuch = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 5996, reason: 'Too much' });
    expect(tooMuch.statusCode).toBe(409);
    expect(tooMuch.json().error.message).toBe('That is more than is left to refund on this order.');
    expect(refundCalls + lookUps).toBe(0);

    const both = await Promise.all([
      admin('POST', `/orders/${orderNumber}/refund`, { amount: 4000, reason: 'First' }),
      admin('POST', `/orders/${orderNumber}/refund`, { amount: 4000, reason: 'Second' }),
    ]);
    expect(both.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(refundCalls).toBe(1);
    expect((await orderRow(orderNumber)).refunded_total).toBe(4000);
    const after = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1996, reason: 'Over' });
    expect(after.statusCode).toBe(409);
    expect(refundCalls).toBe(1);
    expect(await requestsOf(row.id)).toEqual(['refunded']);
  });

  it('records nothing and frees the reservation when Opayo refuses the refund', async () => {
    const { orderNumber, row } = await paidOrder();
    opayo.state.intercept = async (url, _init, forward) => {
      if (!url.endsWith(REFUND_PATH)) return forward();
      refundCalls += 1;
      return new Response(
        'VPSProtocol=4.00\r\nStatus=INVALID\r\nStatusDetail=4035 : This Refund would exceed the amount of the original transaction.\r\n',
      );
    };
    const refused = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1000, reason: 'Goodwill' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().error.message).toContain('INVALID: 4035');
    expect(refundCalls).toBe(1);
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
    expect((await admin('GET', `/orders/${orderNumber}`)).json().refunds).toEqual([]);
    expect(await requestsOf(row.id)).toEqual(['refused']);
  });

  it('records nothing and frees the reservation when the refund times out and Opayo has no record of it', async () => {
    const { orderNumber, row } = await paidOrder();
    opayo.state.intercept = async (url, _init, forward) => {
      if (url.endsWith(REPORTING_PATH)) lookUps += 1;
      if (!url.endsWith(REFUND_PATH)) return forward();
      refundCalls += 1;
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    const timedOut = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1000, reason: 'Goodwill' });
    expect(timedOut.statusCode).toBe(409);
    expect(timedOut.json().error.message).toContain('nothing was refunded');
    // The payment's key was read, then the refund's own code looked up after the timeout.
    expect(lookUps).toBe(2);
    expect((await orderRow(orderNumber)).refunded_total).toBe(0);
    expect(await requestsOf(row.id)).toEqual(['refused']);

    // Freed: the whole amount can be refunded once Opayo answers again.
    opayo.state.intercept = undefined;
    const again = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 5995, reason: 'Goodwill' });
    expect(again.statusCode).toBe(200);
    expect(again.json().refunds).toEqual([expect.objectContaining({ amount: 5995, provider: 'opayo' })]);
  });

  it('records once, from the Reporting API, a refund Opayo made whose answer was lost', async () => {
    const { orderNumber, row } = await paidOrder();
    opayo.state.intercept = async (url, _init, forward) => {
      if (!url.endsWith(REFUND_PATH)) return forward();
      refundCalls += 1;
      await forward();
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    const lost = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1500, reason: 'Late parcel' });
    expect(lost.statusCode).toBe(200);
    expect(lost.json()).toMatchObject({
      refundedTotal: 1500,
      refunds: [{ amount: 1500, provider: 'opayo', reference: expect.stringMatching(VPS_TX_ID) }],
    });
    expect(refundCalls).toBe(1);
    expect(await requestsOf(row.id)).toEqual(['refunded']);
    const activity = await t.app.inject({ method: 'GET', url: '/sandbox/opayo/activity' });
    expect(activity.body.match(new RegExp(`Order ${orderNumber}</td><td>-£`, 'g'))).toHaveLength(1);
  });

  it('keeps the reservation when neither the refund nor the look-up is answered', async () => {
    const { orderNumber, row } = await paidOrder();
    let calls = 0;
    opayo.state.intercept = async (_url, _init, forward) => {
      calls += 1;
      // The payment's look-up is answered; the refund and the look-up after it are not.
      if (calls === 1) return forward();
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    };
    const unknown = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1000, reason: 'Goodwill' });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().error.message).toContain('did not confirm the refund');
    expect((await orderRow(orderNumber)).refunded_total).toBe(1000);
    expect(await requestsOf(row.id)).toEqual(['pending']);
    expect((await admin('GET', `/orders/${orderNumber}`)).json().refunds).toEqual([]);
  });

  it('keeps the reservation when the look-up after a lost answer is refused for another reason than “no such refund”', async () => {
    // Opayo made the refund, its answer was lost, and the Reporting API then refused the look-up
    // itself (a password changed in MySagePay, say): that says nothing of the refund, so freeing
    // the amount would let staff refund it a second time.
    const { orderNumber, row } = await paidOrder();
    let calls = 0;
    opayo.state.intercept = async (url, _init, forward) => {
      calls += 1;
      if (calls === 1) return forward();
      if (url.endsWith(REFUND_PATH)) {
        await forward();
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      }
      return new Response(
        '<vspaccess><errorcode>0003</errorcode><error>The signature does not match.</error></vspaccess>',
      );
    };
    const unknown = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 1000, reason: 'Goodwill' });
    expect(unknown.statusCode).toBe(409);
    expect(unknown.json().error.message).toContain('did not confirm the refund');
    expect((await orderRow(orderNumber)).refunded_total).toBe(1000);
    expect(await requestsOf(row.id)).toEqual(['pending']);
    // The whole payment cannot be refunded again on top of it.
    opayo.state.intercept = undefined;
    const again = await admin('POST', `/orders/${orderNumber}/refund`, { amount: 5995, reason: 'Goodwill' });
    expect(again.statusCode).toBe(409);
  });

  describe('a refund Opayo never confirmed, settled later', () => {
    /** Another instance's sweep, ten minutes on, with Opayo answering again. */
    const sweepLater = () => {
      const payments = createPaymentsService(t.db.kysely, t.config, { fetch: opayo.fetch });
      return createOrdersAdminService(t.db.kysely, {
        now: () => new Date(Date.now() + 11 * 60_000),
        providerOf: payments.providerOf,
      }).settleUnconfirmedRefunds();
    };

    /** A refund of £10 restocking one unit, whose REFUND and look-up both went unanswered. */
    async function unconfirmedRefund(refundReachesOpayo: boolean) {
      const { orderNumber, row } = await paidOrder();
      const line = (await admin('GET', `/orders/${orderNumber}`)).json().lines[0].id;
      let calls = 0;
      opayo.state.intercept = async (url, _init, forward) => {
        calls += 1;
        if (calls === 1) return forward();
        if (url.endsWith(REFUND_PATH) && refundReachesOpayo) await forward();
        throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
      };
      const unknown = await admin('POST', `/orders/${orderNumber}/refund`, {
        amount: 1000,
        reason: 'Goodwill',
        restock: [{ lineId: line, quantity: 1 }],
      });
      expect(unknown.json().error.message).toContain('did not confirm the refund');
      opayo.state.intercept = undefined;
      return { orderNumber, row, line };
    }

    it('records a refund Opayo made, once, with its unit back in stock', async () => {
      const { orderNumber, row } = await unconfirmedRefund(true);
      // Not before its time: a refund still in flight is left alone.
      await createOrdersAdminService(t.db.kysely, {
        providerOf: createPaymentsService(t.db.kysely, t.config, { fetch: opayo.fetch }).providerOf,
      }).settleUnconfirmedRefunds();
      expect(await requestsOf(row.id)).toEqual(['pending']);

      await sweepLater();
      await sweepLater();
      expect(await requestsOf(row.id)).toEqual(['refunded']);
      const detail = (await admin('GET', `/orders/${orderNumber}`)).json();
      expect(detail).toMatchObject({
        refundedTotal: 1000,
        refunds: [{ amount: 1000, provider: 'opayo', reference: expect.stringMatching(VPS_TX_ID) }],
        lines: [expect.objectContaining({ restocked: 1 })],
      });
    });

    it('does not send the unit a refund in flight holds, and sends it once the refund is refused', async () => {
      const { orderNumber, row, line } = await unconfirmedRefund(false);
      const waiting = async () => (await admin('GET', `/orders/${orderNumber}`)).json().lines[0];
      expect(await waiting()).toMatchObject({ quantity: 2, toDispatch: 1 });
      const both = await admin('POST', `/orders/${orderNumber}/dispatch`, {
        lines: [{ orderLineId: line, quantity: 2 }],
        untracked: { service: 'Royal Mail 2nd Class' },
      });
      expect(both.statusCode, both.body).toBe(409);
      // The packing slip lists only the unit that may go.
      const [slip] = await packingSlipsOf(t.db.kysely, { orderNumber });
      expect(slip!.lines.map((one) => one.quantity)).toEqual([1]);

      const one = await admin('POST', `/orders/${orderNumber}/dispatch`, {
        untracked: { service: 'Royal Mail 2nd Class' },
      });
      expect(one.json()).toMatchObject({ fulfilment: 'partially_dispatched' });
      // Opayo made no such refund: the held unit is to send again.
      await sweepLater();
      expect(await requestsOf(row.id)).toEqual(['refused']);
      expect(await waiting()).toMatchObject({ dispatched: 1, toDispatch: 1 });
    });

    it('leaves an order partly sent while a refund holds its last unit, and dispatched once it is made', async () => {
      const { orderNumber, row } = await unconfirmedRefund(true);
      const one = await admin('POST', `/orders/${orderNumber}/dispatch`, {
        untracked: { service: 'Royal Mail 1st Class' },
      });
      expect(one.json()).toMatchObject({ fulfilment: 'partially_dispatched' });
      await sweepLater();
      await sweepLater();
      expect(await requestsOf(row.id)).toEqual(['refunded']);
      expect((await orderRow(orderNumber)).fulfilment).toBe('dispatched');
    });

    it('gives the amount and the held unit back when Opayo has no such refund', async () => {
      const { orderNumber, row, line } = await unconfirmedRefund(false);
      await sweepLater();
      expect(await requestsOf(row.id)).toEqual(['refused']);
      expect((await orderRow(orderNumber)).refunded_total).toBe(0);
      // The whole amount and both units can be refunded again.
      const again = await admin('POST', `/orders/${orderNumber}/refund`, {
        amount: row.total_including_delivery,
        reason: 'Returned',
        restock: [{ lineId: line, quantity: 2 }],
      });
      expect(again.statusCode, again.body).toBe(200);
    });

    it('is not held up by a hundred older requests it cannot settle', async () => {
      const { row: older } = await paidOrder();
      const anHourAgo = new Date(Date.now() - 60 * 60_000).toISOString();
      // A provider without a look-up (PayPal's requests wait for its webhook) leaves these pending.
      await t.db.kysely
        .insertInto('refund_requests')
        .values(
          Array.from({ length: 100 }, (_, i) => ({
            order_id: older.id,
            provider: 'paypal',
            amount: 1,
            status: 'pending',
            request_id: `waiting-for-paypal-${older.id}-${i}`,
            note: '',
            created_at: anHourAgo,
          })),
        )
        .execute();
      const { row } = await unconfirmedRefund(true);
      await sweepLater();
      expect(await requestsOf(row.id)).toEqual(['refunded']);
    });
  });

  describe('the sandbox', () => {
    const command = (vpsTxId: string, password: string, user: string = LOCAL_OPAYO_ADMIN.user) => {
      const elements = reportingElements('getTransactionDetail', { vendor: 'raaglocal', user }, [
        ['vpstxid', vpsTxId.slice(1, -1)],
      ]);
      return `<vspaccess>${elements}<signature>${reportingSignature(elements, password)}</signature></vspaccess>`;
    };
    const report = async (xml: string) =>
      readVspaccess(
        (
          await t.server.inject({
            method: 'POST',
            url: REPORTING_PATH,
            headers: form,
            payload: new URLSearchParams({ XML: xml }).toString(),
          })
        ).body,
      );

    it('answers getTransactionDetail with the security key only to the admin user’s signature', async () => {
      const { row } = await paidOrder();
      const id = row.transaction_id as string;
      const answered = await report(command(id, LOCAL_OPAYO_ADMIN.password));
      expect(answered).toMatchObject({
        errorcode: '0000',
        vpstxid: id.slice(1, -1),
        transactiontype: 'Payment',
        amount: '59.95',
        securitykey: expect.stringMatching(/^[0-9A-F]{10}$/),
      });
      for (const forged of [
        command(id, 'not-the-password'),
        command(id, LOCAL_OPAYO_ADMIN.password, 'someone-else'),
        command(id, LOCAL_OPAYO_ADMIN.password).replace('<vendor>raaglocal', '<vendor>raagloca1'),
      ]) {
        const refused = await report(forged);
        expect(refused?.errorcode).not.toBe('0000');
        expect(refused).not.toHaveProperty('securitykey');
      }
    });

    it('refuses a REFUND that names the payment wrongly or asks for more than is left', async () => {
      const { row } = await paidOrder();
      const id = row.transaction_id as string;
      const payment = (await report(command(id, LOCAL_OPAYO_ADMIN.password))) as Record<string, string>;
      const refund = (fields: Record<string, string>) =>
        t.server.inject({
          method: 'POST',
          url: REFUND_PATH,
          headers: form,
          payload: new URLSearchParams({
            VPSProtocol: '4.00',
            TxType: 'REFUND',
            Vendor: 'raaglocal',
            VendorTxCode: `RAAG-R${row.order_number}-${Date.now()}`,
            Amount: '59.95',
            Currency: 'GBP',
            Description: 'Refund',
            RelatedVPSTxId: id,
            RelatedVendorTxCode: payment.vendortxcode as string,
            RelatedSecurityKey: payment.securitykey as string,
            RelatedTxAuthNo: payment.vpsauthcode as string,
            ...fields,
          }).toString(),
        });
      expect((await refund({ RelatedSecurityKey: 'ABCDEFGHIJ' })).body).toContain('Status=INVALID');
      expect((await refund({ Amount: '59.96' })).body).toContain('Status=INVALID');
      expect((await refund({ Vendor: 'someone' })).body).toContain('Status=INVALID');
      const ok = await refund({ VendorTxCode: `RAAG-R${row.order_number}-once` });
      expect(ok.body).toMatch(/Status=OK\r\n.*\r\nVPSTxId=\{[0-9A-F-]{36}\}/s);
      // The same VendorTxCode twice, and anything after the whole amount, are refused.
      expect((await refund({ VendorTxCode: `RAAG-R${row.order_number}-once`, Amount: '0.01' })).body).toContain(
        'Status=INVALID',
      );
      expect((await refund({ Amount: '0.01' })).body).toContain('Status=INVALID');
    });
  });
});

describe('Opayo without a Reporting API user', () => {
  it('keeps refunds in Opayo’s portal, recorded in the back office', async () => {
    // Nothing may reach Opayo: the refund is made in its portal, not by the shop.
    const fetch = (async (url: string) => {
      throw new Error(`unexpected call to ${url}`);
    }) as unknown as typeof globalThis.fetch;
    const { t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo', OPAYO_MODE: 'test' }, { fetch });
    try {
      const p = await fx.product(2500, 10);
      const committed = await placeOrder(t, p.stockId);
      await t.db.kysely
        .updateTable('orders')
        .set({
          status: 'paid',
          payment_provider: 'opayo',
          transaction_id: '{5D4E1F7A-0B9C-4E2D-8F3A-1C2B3D4E5F60}',
          paid_at: new Date().toISOString(),
        })
        .where('order_number', '=', committed.orderNumber)
        .execute();
      const admin = (method: 'GET' | 'POST', payload?: object) =>
        t.app.inject({
          method,
          url: `/api/admin/orders/${committed.orderNumber}${payload ? '/refund' : ''}`,
          headers: { cookie },
          ...(payload ? { payload } : {}),
        });
      expect((await admin('GET')).json().refundsThrough).toBe('outside');
      const recorded = await admin('POST', { amount: 500, reason: 'Refunded in MySagePay' });
      expect(recorded.statusCode).toBe(200);
      expect(recorded.json().refunds).toEqual([expect.objectContaining({ provider: 'manual', amount: 500 })]);
    } finally {
      await t.close();
    }
  });
});
