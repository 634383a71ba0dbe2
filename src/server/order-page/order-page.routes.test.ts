import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OrderDetail } from '../../contract/admin/orders.ts';
import { ORDER_PAGE_NOT_FOUND, orderPageSchema } from '../../contract/order-page.ts';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { TEST_SESSION_SECRET } from '../../../test/helpers/csrf.ts';
import { backOffice, orderRow, paidByCard, placeOrder, shopForPayments } from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { registrationBody, REGISTRATION_PASSWORD } from '../../../test/helpers/registration.ts';
import type { TestApp } from '../../../test/helpers/test-app.ts';
import { createOrderLinks } from '../orders/order-links.ts';

/**
 * The customer's order page (docs/rules.md#the-customers-order-page): a paid order by the key of
 * its signed link, the same 404 for every key that opens none, staff revoking its links, and the
 * limit on guessing.
 */
describe('GET /api/order-page/:key and revoking its links', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const links = createOrderLinks(TEST_SESSION_SECRET);

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo', LOG_LEVEL: 'error' }, injectedPaypal()));
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    backOffice(t, cookie).call(method, url, payload);
  const open = (key: string) => t.app.inject({ method: 'GET', url: `/api/order-page/${key}` });
  const keyOf = async (orderNumber: number) => links.keyOf(orderNumber, (await orderRow(t, orderNumber)).link_version);

  /** Two £25.00 drum heads and a £19.99 cover, paid by card. */
  async function paidOrder() {
    const head = await fx.product(2500, 10);
    const cover = await fx.product(1999, 10);
    const committed = await paidByCard(t, head.stockId, 2, {
      items: [
        { productStockId: head.stockId, requestedQty: 2 },
        { productStockId: cover.stockId, requestedQty: 1 },
      ],
    });
    expect((await orderRow(t, committed.orderNumber)).status).toBe('paid');
    const detail = (await admin('GET', `/orders/${committed.orderNumber}`)).json() as OrderDetail;
    const [headLine, coverLine] = detail.lines as [OrderDetail['lines'][number], OrderDetail['lines'][number]];
    return { ...committed, head, cover, headLine, coverLine };
  }

  it('answers a dispatched order with a refund: lines, totals, addresses, fulfilments and documents', async () => {
    const { orderNumber, head, cover, headLine, coverLine } = await paidOrder();
    const part = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      lines: [{ orderLineId: headLine.id, quantity: 1 }],
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(part.statusCode, part.body).toBe(200);
    const refund = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1999,
      reason: 'The cover is out of stock',
      restock: [{ lineId: coverLine.id, quantity: 1 }],
    });
    expect(refund.statusCode, refund.body).toBe(200);
    const rest = await admin('POST', `/orders/${orderNumber}/dispatch`, {
      parcels: [{ carrier: 'Royal Mail', trackingNumber: 'AB123456789GB' }],
    });
    expect(rest.statusCode, rest.body).toBe(200);

    const answer = await open(await keyOf(orderNumber));
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    const page = orderPageSchema.parse(answer.json());
    const row = await orderRow(t, orderNumber);
    expect(page).toMatchObject({
      orderNumber,
      placedAt: row.created_at,
      payment: { status: 'partially_refunded', words: 'Paid, partly refunded' },
      fulfilment: { status: 'dispatched', words: 'On its way' },
      deliveryKind: 'delivery',
      totals: {
        items: 6999,
        discount: 0,
        delivery: row.delivery_price,
        deliveryMethod: row.delivery_method_name,
        vat: row.total_vat,
        totalPaid: row.total_including_delivery,
        refunded: 1999,
      },
      billingAddress: { lines: ['Asha Kaur', '12 Market Street', 'West Bromwich', 'B70 7NJ', 'United Kingdom'] },
      deliveryAddress: { lines: expect.arrayContaining(['Asha Kaur', 'B70 7NJ']) },
      collectionPoint: null,
    });
    expect(page.lines).toEqual([
      {
        id: headLine.id,
        title: head.title,
        sizeName: 'Size 1',
        quantity: 2,
        unitPrice: 2500,
        lineTotal: 5000,
        pictureUrl: expect.any(String),
        dispatched: 2,
        refunded: 0,
      },
      {
        id: coverLine.id,
        title: cover.title,
        sizeName: 'Size 1',
        quantity: 1,
        unitPrice: 1999,
        lineTotal: 1999,
        pictureUrl: expect.any(String),
        dispatched: 0,
        refunded: 1,
      },
    ]);
    expect(page.fulfilments).toEqual([
      {
        dispatchedAt: expect.any(String),
        lines: [{ orderLineId: headLine.id, title: head.title, sizeName: 'Size 1', quantity: 1 }],
        parcels: [],
        untrackedService: 'Royal Mail 1st Class',
      },
      {
        dispatchedAt: expect.any(String),
        lines: [{ orderLineId: headLine.id, title: head.title, sizeName: 'Size 1', quantity: 1 }],
        parcels: [
          {
            carrier: 'Royal Mail',
            trackingNumber: 'AB123456789GB',
            trackingUrl: 'https://www.royalmail.com/track-your-item#/tracking-results/AB123456789GB',
          },
        ],
        untrackedService: null,
      },
    ]);
    // The documents by their signed links, which open them with no account.
    expect(page.invoice.number).toMatch(/^INV-\d{6}$/);
    expect(page.creditNotes).toEqual([
      {
        number: expect.stringMatching(/^CN-\d{6}$/),
        url: expect.any(String),
        issuedAt: expect.any(String),
        amount: 1999,
      },
    ]);
    for (const url of [page.invoice.url, page.creditNotes[0]!.url]) {
      const pdf = await t.app.inject({ method: 'GET', url });
      expect(pdf.statusCode, url).toBe(200);
      expect(pdf.headers['content-type']).toBe('application/pdf');
    }
  });

  it("answers wrong, revoked, guessed and unpaid orders' keys byte for byte alike", async () => {
    const { orderNumber } = await paidOrder();
    const key = await keyOf(orderNumber);
    const unpaid = await placeOrder(t, (await fx.product(1200, 5)).stockId);
    const revoked = (await admin('POST', `/orders/${orderNumber}/order-link/revoke`)).statusCode;
    expect(revoked).toBe(200);
    const keys = {
      revoked: key,
      wrong: 'not-a-key',
      'too long': `${orderNumber}.${'A'.repeat(150)}`,
      'wrong signature': `${orderNumber}.${'A'.repeat(43)}`,
      'no such order': links.keyOf(9_999_999, 1),
      // Past what PostgreSQL's integer column holds: a 500 there, once.
      'a number past any order': links.keyOf(9_999_999_999, 1),
      'one past the largest order number': links.keyOf(2_147_483_648, 1),
      'signed with another secret': createOrderLinks('another-shop-secret').keyOf(orderNumber, 2),
      unpaid: links.keyOf(unpaid.orderNumber, 1),
    };
    const answers = await Promise.all(Object.values(keys).map(open));
    for (const [i, answer] of answers.entries()) {
      expect(answer.statusCode, Object.keys(keys)[i]).toBe(404);
      expect(answer.body, Object.keys(keys)[i]).toBe(answers[0]!.body);
      expect(answer.headers['content-type']).toBe(answers[0]!.headers['content-type']);
      expect(answer.headers['cache-control']).toBe('no-store');
    }
    expect(answers[0]!.json()).toEqual({ error: { code: 'NOT_FOUND', message: ORDER_PAGE_NOT_FOUND } });
  });

  it('revoking makes the old link 404, the new one open, and e-mails the new one to the customer once', async () => {
    const { orderNumber } = await paidOrder();
    const old = await keyOf(orderNumber);
    expect((await open(old)).statusCode).toBe(200);
    const mailsTo = async () =>
      t.db.kysely
        .selectFrom('mail_queue')
        .select(['recipient', 'subject', 'paragraphs'])
        .where('subject', '=', `A new link to your order ${orderNumber}`)
        .execute();
    expect(await mailsTo()).toEqual([]);

    const revoked = await admin('POST', `/orders/${orderNumber}/order-link/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ orderNumber, to: 'asha@example.com' });

    const fresh = await keyOf(orderNumber);
    expect(fresh).not.toBe(old);
    expect((await open(old)).statusCode).toBe(404);
    expect((await open(fresh)).statusCode).toBe(200);
    const mails = await mailsTo();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.recipient).toBe('asha@example.com');
    // The queue never keeps the page's key: the link is signed when the message is sent.
    const queued = await t.db.kysely
      .selectFrom('mail_queue')
      .selectAll()
      .where('subject', '=', `A new link to your order ${orderNumber}`)
      .execute();
    expect(JSON.stringify(queued)).not.toContain(fresh.split('.')[1]!);
    const sent = (await deliveredMail(t)).filter((m) => m.subject === `A new link to your order ${orderNumber}`);
    expect(sent).toHaveLength(1);
    const body = decodeQuotedPrintable(sent[0]!.raw);
    expect(body).toMatch(
      new RegExp(`<a href="${t.config.publicUrl}/order/${fresh}"[^>]*>((?!</a>)[\\s\\S])*View your order`),
    );
    expect(body).not.toContain(old);
    // Audited, and shown on the back office's order.
    const detail = (await admin('GET', `/orders/${orderNumber}`)).json() as OrderDetail;
    expect(detail.audit.map((entry) => entry.action)).toContain('order.revoke-order-link');
  });

  it("refuses to revoke an unpaid order's links, and without a member of staff", async () => {
    const unpaid = await placeOrder(t, (await fx.product(1200, 5)).stockId);
    expect((await admin('POST', `/orders/${unpaid.orderNumber}/order-link/revoke`)).statusCode).toBe(409);
    const { orderNumber } = await paidOrder();
    const anonymous = await t.app.inject({ method: 'POST', url: `/api/admin/orders/${orderNumber}/order-link/revoke` });
    expect(anonymous.statusCode).toBe(401);
  });

  it("gives My Account's orders and the confirmation page the link of a paid order only", async () => {
    const { orderNumber, orderCode } = await paidOrder();
    const status = (await t.app.inject({ method: 'GET', url: `/api/order-status/${orderCode}` })).json();
    expect(status.orderPagePath).toBe(`/order/${await keyOf(orderNumber)}`);
    const unpaid = await placeOrder(t, (await fx.product(1200, 5)).stockId);
    const unpaidStatus = (await t.app.inject({ method: 'GET', url: `/api/order-status/${unpaid.orderCode}` })).json();
    expect(unpaidStatus.orderPagePath).toBeNull();

    // A registered customer's orders, the paid one and the unpaid one.
    const email = `order-page.${Date.now()}@example.com`;
    const registered = await t.app.inject({ method: 'POST', url: '/api/register', payload: registrationBody(email) });
    expect(registered.json()).toEqual({ errorCode: 0 });
    const customer = await t.db.kysely
      .updateTable('customers')
      .set({ verified_at: new Date().toISOString() })
      .where('email', '=', email)
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db.kysely
      .updateTable('orders')
      .set({ customer_id: customer.id })
      .where('order_number', 'in', [orderNumber, unpaid.orderNumber])
      .execute();
    const token = (
      await t.app.inject({
        method: 'POST',
        url: '/api/sign-in',
        payload: { username: email, password: REGISTRATION_PASSWORD },
      })
    ).json() as string;
    const orders = (
      await t.app.inject({ method: 'GET', url: '/api/account/orders', headers: { authorization: `Bearer ${token}` } })
    ).json();
    expect(
      orders.map((order: { orderNumber: number; orderPagePath: string | null }) => [
        order.orderNumber,
        order.orderPagePath,
      ]),
    ).toEqual([
      [unpaid.orderNumber, null],
      [orderNumber, `/order/${await keyOf(orderNumber)}`],
    ]);
  });
});

describe("the order page's limit", () => {
  let t: TestApp;
  beforeAll(async () => {
    ({ t } = await shopForPayments(
      { PAYMENT_PROVIDER: 'opayo', LOG_LEVEL: 'error', RATE_LIMIT_FACTOR: '1' },
      injectedPaypal(),
    ));
  });
  afterAll(() => t.close());

  it('answers one address 30 keys a minute, then 429', async () => {
    const links = createOrderLinks(TEST_SESSION_SECRET);
    const statuses: number[] = [];
    for (let i = 0; i < 31; i++)
      statuses.push(
        (await t.app.inject({ method: 'GET', url: `/api/order-page/${links.keyOf(200_000 + i, 1)}` })).statusCode,
      );
    expect(statuses.slice(0, 30).every((status) => status === 404)).toBe(true);
    expect(statuses[30]).toBe(429);
  });
});
