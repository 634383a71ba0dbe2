import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { checkoutFixtures, commitBody } from '../../../test/helpers/checkout-fixtures.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { REGISTRATION_PASSWORD, registrationBody } from '../../../test/helpers/registration.ts';
import { completedPaymentIpn, placeOrder } from '../../../test/helpers/paid-orders.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';

/**
 * Checkout first (docs/decisions/0020-checkout-first.md): while browsing holds every connection of
 * the shop's pool, a checkout commits and a payment notification is applied, on the money path's
 * own connections.
 */
describe('checkouts and payment notifications while browsing holds every shop connection', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    // PayPal answers every IPN the shop asks it about as genuine.
    const paymentFetch = (async () => new Response('VERIFIED')) as unknown as typeof fetch;
    t = await createTestApp({ env: { RATE_LIMIT_FACTOR: '100' }, paymentFetch, checkoutPoolSize: 2 });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  /** Holds every connection of the shop's pool (5 in the tests) in a transaction until released. */
  async function holdShopPool(): Promise<() => Promise<void>> {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: 5 }, () =>
      t.db.kysely.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx);
        await gate;
      }),
    );
    await vi.waitFor(() => expect(t.db.poolUsage().inUse).toBe(5), { timeout: 20_000, interval: 5 });
    return async () => {
      release();
      await Promise.all(holders);
    };
  }

  /** A registered, activated and signed-in customer's session cookie. */
  async function signedInCustomer(): Promise<string> {
    const email = `sale.day.${Date.now()}@example.com`;
    await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) });
    const mail = (await deliveredMail(t)).filter((m) => m.to === email).at(-1);
    const token = /\/verify-account\/([A-Za-z0-9_-]+)/.exec(decodeQuotedPrintable(mail?.raw ?? ''))?.[1];
    await t.app.inject({ method: 'POST', url: '/api/activate', payload: { token } });
    const signedIn = await t.app.inject({
      method: 'POST',
      url: '/api/sign-in',
      payload: { username: email, password: REGISTRATION_PASSWORD },
    });
    const sid = signedIn.cookies.find((c) => c.name === 'sid')?.value;
    if (!sid) throw new Error(`no session: ${signedIn.body}`);
    return `sid=${sid}`;
  }

  it('commits an order and applies its IPN without waiting for a connection of the shop pool', async () => {
    if (testDialect === 'sqlite') {
      // SQLite: one connection serves all, lent to one statement or transaction at a time.
      expect(t.db.checkout).toBe(t.db.kysely);
      return;
    }
    const stockId = (await fx.product(2500, 5)).stockId;
    const cookie = await signedInCustomer();
    const release = await holdShopPool();
    try {
      // No timers: the shop pool is held until `release` below, so a call that waited for one of its
      // connections would never answer, and the test would fail by its timeout.
      // A signed-in shopper's checkout: their session is looked up on the money path's connections too.
      const signedInCommit = await t.app.inject({
        method: 'POST',
        url: '/api/basket',
        headers: { cookie },
        payload: commitBody([{ productStockId: stockId, requestedQty: 1 }]),
      });
      expect(signedInCommit.json()).toMatchObject({ ok: true });

      const committed = await placeOrder(t, stockId);
      expect(committed).toMatchObject({ ok: true });
      const notified = await completedPaymentIpn(t, committed.orderNumber, 'SALEDAYTXN0000001');
      expect(notified.statusCode).toBe(200);
    } finally {
      await release();
    }
    const row = await t.db.kysely.selectFrom('orders').select('status').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.status).toBe('paid');
  });
});
