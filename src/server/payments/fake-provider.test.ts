import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { backOffice, orderRow, placeOrder } from '../../../test/helpers/paid-orders.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import type { AdapterFactory, ProviderRefundResult } from './payment-provider.ts';

/**
 * A payment provider is a protocol adapter (docs/decisions/0025-payment-adapters.md): it builds the
 * handoff, turns what its provider posts into a typed event, and asks its provider for refunds. The
 * payments service applies every event through the order lifecycle, so a provider written in one
 * file, as this fake is, takes an order through paid, refunded and reversed with the shop's own
 * checks: the amount, the payment it names, each event once, never more back than was paid.
 */

/** What the fake provider posts to its webhook: its own little protocol. */
interface FakeNotice {
  id: string;
  type: 'captured' | 'reversed';
  orderNumber: number;
  pence: number;
  payment?: string;
}

const refundsAsked: Array<{ orderNumber: number; amount: number }> = [];

/** The whole provider: a redirect handoff, a JSON webhook, and a refund call that always succeeds. */
const fakeProvider: AdapterFactory = ({ payments }) => ({
  id: 'fake',
  async handoff(order) {
    return { kind: 'redirect', url: `https://fake.example/pay/${order.order_number}` };
  },
  routes: [
    {
      method: 'POST',
      url: '/webhooks/fake',
      async handle(request) {
        const notice = request.body as FakeNotice;
        const received = { key: `fake:${notice.id}`, providerStatus: notice.type, body: JSON.stringify(notice) };
        const money = { orderNumber: notice.orderNumber, amount: notice.pence, currency: 'GBP' };
        const applied =
          notice.type === 'captured'
            ? await payments.apply({ ...received, ...money, type: 'captured', reference: notice.id })
            : await payments.apply({
                ...received,
                ...money,
                type: 'reversed',
                reference: notice.id,
                paymentReference: notice.payment ?? '',
              });
        return { kind: 'json', body: applied };
      },
    },
  ],
  async refund({ order, amount, requestId }): Promise<ProviderRefundResult> {
    refundsAsked.push({ orderNumber: order.order_number, amount });
    const reference = `FAKE-R${refundsAsked.length}`;
    return {
      outcome: 'refunded',
      event: {
        type: 'refunded',
        key: `fake:${reference}`,
        providerStatus: 'refunded',
        body: JSON.stringify({ reference, amount }),
        orderNumber: order.order_number,
        amount,
        currency: 'GBP',
        reference,
        paymentReference: order.transaction_id ?? '',
        requestId,
      },
    };
  },
});

describe('a payment provider from one file', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let office: ReturnType<typeof backOffice>;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, paymentAdapters: { fake: fakeProvider } });
    fx = await checkoutFixtures(t.db);
    office = backOffice(t, (await staffMember(t, 'staff')).cookie);
  });
  afterAll(() => t.close());

  const notify = (notice: FakeNotice) => t.app.inject({ method: 'POST', url: '/webhooks/fake', payload: notice });

  it('takes an order through paid, refunded by staff and reversed', async () => {
    const p = await fx.product(2500, 5);
    const order = await placeOrder(t, p.stockId, 1);
    const total = (await orderRow(t, order.orderNumber)).total_including_delivery;

    // A capture for the wrong amount pays nothing; the right one pays, once.
    expect((await notify({ id: 'PAY-0', type: 'captured', orderNumber: order.orderNumber, pence: 1 })).json()).toEqual({
      outcome: 'rejected',
      reason: 'wrong amount',
    });
    const paid = { id: 'PAY-1', type: 'captured', orderNumber: order.orderNumber, pence: total } as const;
    expect((await notify(paid)).json()).toEqual({ outcome: 'paid' });
    expect((await notify(paid)).json()).toEqual({ outcome: 'duplicate' });
    const status = (await t.app.inject({ method: 'GET', url: `/api/order-status/${order.orderCode}` })).json();
    expect(status).toMatchObject({ status: 'paid', provider: 'fake', transactionId: 'PAY-1' });

    // Staff refund part of it through the provider, which answers that it refunded.
    expect((await office.order(order.orderNumber)).refundsThrough).toBe('provider');
    const refunded = await office.call('POST', `/orders/${order.orderNumber}/refund`, {
      amount: 1000,
      reason: 'Scratched case',
    });
    expect(refunded.statusCode).toBe(200);
    expect(refundsAsked).toEqual([{ orderNumber: order.orderNumber, amount: 1000 }]);
    expect(refunded.json()).toMatchObject({
      refundedTotal: 1000,
      refunds: [{ kind: 'refund', amount: 1000, provider: 'fake', reference: 'FAKE-R1' }],
    });

    // The provider reports a reversal (a chargeback) of what is left; more than that is refused.
    const tooMuch = { id: 'REV-0', type: 'reversed', orderNumber: order.orderNumber, pence: total, payment: 'PAY-1' };
    expect((await notify(tooMuch as FakeNotice)).json()).toEqual({
      outcome: 'rejected',
      reason: 'more than is left to refund',
    });
    const reversal = { ...tooMuch, id: 'REV-1', pence: total - 1000 } as FakeNotice;
    expect((await notify({ ...reversal, id: 'REV-X', payment: 'ANOTHER' })).json()).toMatchObject({
      outcome: 'rejected',
    });
    expect((await notify(reversal)).json()).toEqual({ outcome: 'recorded', what: 'reversal' });
    expect((await notify(reversal)).json()).toEqual({ outcome: 'duplicate' });

    const detail = await office.order(order.orderNumber);
    expect(detail).toMatchObject({ status: 'paid', refundedTotal: total, actions: [] });
    expect(detail.refunds).toMatchObject([
      { kind: 'refund', amount: 1000, provider: 'fake', reference: 'FAKE-R1' },
      { kind: 'reversal', amount: total - 1000, provider: 'fake', reference: 'REV-1' },
    ]);
    expect(detail.paymentEvents.map((event: { outcome: string }) => event.outcome)).toEqual([
      'rejected: wrong amount',
      'paid',
      'recorded refund',
      'rejected: more than is left to refund',
      "rejected: not this order's payment",
      'recorded reversal',
    ]);
  });
});
