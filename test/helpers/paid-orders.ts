import { commitResponseSchema } from '../../src/contract/basket.ts';
import { markOrderPaid } from '../../src/server/orders/order-lifecycle.ts';
import { checkoutFixtures, commitBody, guest } from './checkout-fixtures.ts';
import type { injectedPaypal } from './paypal-checkout.ts';
import { staffMember } from './staff.ts';
import { createTestApp, type TestApp } from './test-app.ts';

/**
 * The steps the payment tests share: a shop whose provider calls reach its own sandboxes in
 * process, an order committed through POST /api/basket, the shopper paying in a sandbox, and the
 * back office's view of the order.
 */

/** Where the shop's calls to its payment provider go: its own sandboxes (injectedPaypal), or a stand-in. */
type ProviderCalls = Pick<ReturnType<typeof injectedPaypal>, 'fetch'> &
  Partial<Pick<ReturnType<typeof injectedPaypal>, 'state'>>;

/** A shop with the given settings whose payment calls go where `provider` says, and a member of staff signed in. */
export async function shopForPayments(env: Record<string, string>, provider: ProviderCalls) {
  const t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100', ...env }, paymentFetch: provider.fetch });
  if (provider.state) provider.state.app = t.server;
  const fx = await checkoutFixtures(t.db);
  const { cookie } = await staffMember(t, 'staff');
  return { t, fx, cookie };
}

/** SECURE CHECKOUT: commits a basket of one stock entry and answers the order, failing the test if there is none. */
export async function placeOrder(
  t: TestApp,
  stockId: number,
  quantity = 1,
  extra: Parameters<typeof commitBody>[1] = {},
) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/basket',
    payload: commitBody([{ productStockId: stockId, requestedQty: quantity }], extra),
  });
  const result = commitResponseSchema.parse(response.json());
  if (!result.ok) throw new Error(`expected an order: ${response.body}`);
  return result;
}

/** An order placed as placeOrder places it and paid by card through the Opayo sandbox (PAYMENT_PROVIDER=opayo). */
export async function paidByCard(
  t: TestApp,
  stockId: number,
  quantity = 1,
  extra: Parameters<typeof commitBody>[1] = {},
) {
  const committed = await placeOrder(t, stockId, quantity, extra);
  await paidThroughOpayo(t, committed);
  return committed;
}

/** The handoff to PayPal Checkout and the shopper pressing Pay there: the approval's token and the return address. */
export async function approvedPaypalReturn(t: TestApp, orderCode: string) {
  const handoff = await t.app.inject({ method: 'GET', url: `/api/payment-handoff/${orderCode}` });
  if (handoff.statusCode !== 200) throw new Error(`expected a handoff: ${handoff.statusCode} ${handoff.body}`);
  const token = new URL(handoff.json().url).searchParams.get('token') as string;
  const approved = await t.app.inject({
    method: 'POST',
    url: '/sandbox/paypal/checkoutnow',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ token, action: 'pay' }).toString(),
  });
  const back = new URL(approved.headers.location as string);
  return { token, returnUrl: `${back.pathname}${back.search}` };
}

/** The shopper paying by card in the Opayo sandbox and coming back to the shop. */
export function paidThroughOpayo(t: TestApp, order: { orderNumber: number; orderCode: string }) {
  return cardThroughOpayo(t, order, '4929000000006');
}

/** The shopper's card declined in the Opayo sandbox, and the shopper back at the shop: the order's payment failed. */
export function declinedThroughOpayo(t: TestApp, order: { orderNumber: number; orderCode: string }) {
  return cardThroughOpayo(t, order, '4000000000000002');
}

async function cardThroughOpayo(t: TestApp, order: { orderNumber: number; orderCode: string }, card: string) {
  const registration = (
    await t.app.inject({ method: 'GET', url: `/api/sagepay-config/${order.orderNumber}?code=${order.orderCode}` })
  ).json();
  const paid = await t.app.inject({
    method: 'POST',
    url: '/sandbox/opayo/pay',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ Crypt: registration.crypt, card, action: 'pay' }).toString(),
  });
  const back = new URL(paid.headers.location as string);
  await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
}

/** The back office's API, called as the signed-in member of staff whose cookie this is. */
export function backOffice(t: TestApp, cookie: string) {
  const call = (method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  return {
    call,
    /** The order as the back office's order page shows it. */
    order: async (orderNumber: number) => (await call('GET', `/orders/${orderNumber}`)).json(),
  };
}

/** The order's row as stored. */
export function orderRow(t: TestApp, orderNumber: number) {
  return t.db.kysely.selectFrom('orders').selectAll().where('order_number', '=', orderNumber).executeTakeFirstOrThrow();
}

/** PayPal Payments Standard's IPN for a completed payment of an order, as PayPal posts it. */
export function completedPaymentIpn(t: TestApp, orderNumber: number, txnId: string, gross = '34.95') {
  return t.app.inject({
    method: 'POST',
    url: '/api/payments/paypal/ipn',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({
      mc_gross: gross,
      invoice: String(orderNumber),
      payment_status: 'Completed',
      txn_id: txnId,
      mc_currency: 'GBP',
      receiver_email: 'payments@raag-instruments.example',
    }).toString(),
  });
}

/**
 * An order of these stock entries committed by a guest and marked paid straight through the
 * lifecycle, as a provider's confirmation would (the after-sale tests: cancellations and returns).
 */
export async function paidGuestOrder(
  t: TestApp,
  items: ReadonlyArray<{ stockId: number; quantity: number }>,
  options: {
    email: string;
    remoteAddress: string;
    provider: string;
    providerStatus: string;
    paidAt: string;
    extra?: Omit<NonNullable<Parameters<typeof commitBody>[1]>, 'guest'>;
  },
) {
  const committed = await t.app.inject({
    method: 'POST',
    url: '/api/basket',
    payload: commitBody(
      items.map((item) => ({ productStockId: item.stockId, requestedQty: item.quantity })),
      { guest: { ...guest, email: options.email }, ...options.extra },
    ),
    remoteAddress: options.remoteAddress,
  });
  const result = commitResponseSchema.parse(committed.json());
  if (!result.ok) throw new Error(`expected an order: ${committed.body}`);
  const placed = await orderRow(t, result.orderNumber);
  await t.db.kysely.transaction().execute((trx) =>
    markOrderPaid(
      trx,
      placed,
      {
        provider: options.provider,
        providerStatus: options.providerStatus,
        transactionId: `TX${options.provider.toUpperCase()}${result.orderNumber}`,
      },
      options.paidAt,
    ),
  );
  return { orderNumber: result.orderNumber, row: await orderRow(t, result.orderNumber) };
}
