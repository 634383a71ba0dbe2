import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import {
  approvedPaypalReturn,
  backOffice,
  orderRow,
  paidByCard,
  placeOrder,
  shopForPayments,
} from '../../../test/helpers/paid-orders.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { createSecondInstance, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';
import { BadRequestError } from '../errors.ts';
import { TEST_SESSION_SECRET } from '../../../test/helpers/csrf.ts';
import { createOrderLinks } from '../orders/order-links.ts';
import { createDocumentLinks } from './document-links.ts';
import { createDocumentsService } from './documents.service.ts';

/**
 * VAT invoices and credit notes (docs/rules.md#invoices-and-credit-notes), read back from their
 * PDFs' text: every field HMRC asks of a full VAT invoice and every sum, for an order with a
 * voucher, several lines and paid delivery, one with free delivery, and a partial refund. The
 * expected amounts are worked out here by hand from the prices, not by the shop's functions.
 */

/** The text of a PDF, its lines joined by newlines. */
async function textOf(pdf: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text;
}

describe('VAT invoices and credit notes', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const opayo = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments(
      { PAYMENT_PROVIDER: 'opayo', SHOP_VAT_NUMBER: 'GB 987 6543 21', LOG_LEVEL: 'error' },
      opayo,
    ));
  });
  afterAll(() => t.close());

  const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
    backOffice(t, cookie).call(method, url, payload);

  async function pdfText(url: string): Promise<string> {
    const answer = await admin('GET', url);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['cache-control']).toBe('no-store');
    return textOf(answer.rawPayload);
  }

  /**
   * Two units of a £25.00 drum head and one £19.99 tabla cover, a 10 % voucher and express
   * delivery (£9.95), paid by card: items £69.99, discount £7.00, total £72.94.
   */
  async function voucherOrder() {
    const head = await fx.product(2500, 10);
    const cover = await fx.product(1999, 10);
    const code = await fx.voucher({ kind: 'percent', amount: 10 });
    const committed = await paidByCard(t, head.stockId, 2, {
      items: [
        { productStockId: head.stockId, requestedQty: 2 },
        { productStockId: cover.stockId, requestedQty: 1 },
      ],
      appliedVouchers: [{ code }],
    });
    expect((await orderRow(t, committed.orderNumber)).total_including_delivery).toBe(7294);
    expect((await orderRow(t, committed.orderNumber)).status).toBe('paid');
    return { ...committed, head, cover, code };
  }

  it('issues a full VAT invoice when an order is paid, its lines and totals adding up', async () => {
    const { orderNumber, head, cover, code } = await voucherOrder();
    const listed = (await admin('GET', `/orders/${orderNumber}/documents`)).json();
    expect(listed.invoice.number).toMatch(/^INV-\d{6}$/);
    expect(listed.creditNotes).toEqual([]);
    const text = await pdfText(`/orders/${orderNumber}/invoice`);

    expect(text).toContain('VAT invoice');
    expect(text).toContain(`Invoice number ${listed.invoice.number}`);
    const day = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'Europe/London' }).format(new Date());
    expect(text).toContain(`Date of issue ${day}`);
    expect(text).toContain(`Time of supply ${day}`);
    expect(text).toContain(`Order number ${orderNumber}`);
    // The seller: name, address, VAT registration number (as configured, its spaces gone).
    expect(text).toContain('Raag Instruments');
    expect(text).toMatch(/Unit 14\s+Queens Square\s+Shopping Precinct\s+West Bromwich\s+West Midlands\s+B70 7NJ/);
    expect(text).toMatch(/VAT registration number:\s+GB987654321/);
    // The customer: name and billing address.
    expect(text).toMatch(/Asha Kaur\s+12 Market Street\s+West Bromwich\s+B70 7NJ\s+United Kingdom/);
    // Per line: description, quantity, unit price without VAT, rate, net and VAT. VAT on the total
    // is £72.94 / 6 = £12.157 -> £12.16; the lines' own roundings come to £12.15, and the penny
    // goes to the largest line, so the lines add up to the total.
    expect(text).toContain(`${head.title} (Size 1) 2 £20.83 20% £41.66 £8.34`);
    expect(text).toContain(`${cover.title} (Size 1) 1 £16.66 20% £16.66 £3.33`);
    expect(text).toContain(`Voucher ${code} 1 -£5.83 20% -£5.83 -£1.17`);
    expect(text).toContain('Delivery: Express delivery 1 £8.29 20% £8.29 £1.66');
    expect(text).toContain('Total excluding VAT £60.78');
    expect(text).toContain('VAT at 20% £12.16');
    expect(text).toContain('Total including VAT £72.94');
    expect(text).toContain('Paid in full by Card (Opayo)');
  });

  it('shows free delivery as a line of nothing', async () => {
    const drum = await fx.product(6000, 5);
    const committed = await paidByCard(t, drum.stockId, 1, { deliveryMethodRateId: 2 });
    const text = await pdfText(`/orders/${committed.orderNumber}/invoice`);
    expect(text).toContain(`${drum.title} (Size 1) 1 £50.00 20% £50.00 £10.00`);
    expect(text).toContain('Delivery: Free standard delivery 1 £0.00 20% £0.00 £0.00');
    expect(text).toContain('Total excluding VAT £50.00');
    expect(text).toContain('VAT at 20% £10.00');
    expect(text).toContain('Total including VAT £60.00');
  });

  it('issues a credit note for a partial refund, against the invoice, with its VAT and reason', async () => {
    const { orderNumber, head } = await voucherOrder();
    const order = await backOffice(t, cookie).order(orderNumber);
    const headLine = order.lines.find((line: { title: string }) => line.title === head.title);
    const refunded = await admin('POST', `/orders/${orderNumber}/refund`, {
      amount: 1000,
      reason: 'One drum head arrived split',
      restock: [{ lineId: headLine.id, quantity: 1 }],
    });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const listed = (await admin('GET', `/orders/${orderNumber}/documents`)).json();
    expect(listed.creditNotes).toHaveLength(1);
    const [note] = listed.creditNotes;
    expect(note).toMatchObject({ number: expect.stringMatching(/^CN-\d{6}$/), amount: 1000 });

    const text = await pdfText(note.url.replace('/api/admin', ''));
    expect(text).toContain('Credit note');
    expect(text).toContain(`Credit note number ${note.number}`);
    expect(text).toContain(`Against invoice ${listed.invoice.number}`);
    expect(text).toContain(`Order number ${orderNumber}`);
    expect(text).toMatch(/VAT registration number:\s+GB987654321/);
    expect(text).toContain('Asha Kaur');
    expect(text).toContain('One drum head arrived split');
    expect(text).toContain(`${head.title} (Size 1) 1`);
    // £10.00 refunded: VAT £10.00 / 6 = £1.667 -> £1.67, net £8.33.
    expect(text).toContain('Total excluding VAT £8.33');
    expect(text).toContain('VAT at 20% £1.67');
    expect(text).toContain('Total including VAT £10.00');

    // The invoice is as it was issued: a refund never changes it.
    expect(await pdfText(`/orders/${orderNumber}/invoice`)).toContain('Total including VAT £72.94');
  });

  it('has no invoice for an order not paid, and none for an order that does not exist', async () => {
    const p = await fx.product(1500, 5);
    const unpaid = await placeOrder(t, p.stockId, 1);
    expect((await admin('GET', `/orders/${unpaid.orderNumber}/invoice`)).statusCode).toBe(404);
    expect((await admin('GET', `/orders/${unpaid.orderNumber}/documents`)).json()).toEqual({
      invoice: null,
      creditNotes: [],
    });
    expect((await admin('GET', '/orders/999999/invoice')).statusCode).toBe(404);
    expect((await admin('GET', '/credit-notes/999999')).statusCode).toBe(404);
  });

  it('keeps the documents behind the staff sign-in, and the batch’s period within bounds', async () => {
    for (const url of ['/orders/100001/invoice', '/credit-notes/1', '/documents?from=2026-11-01&to=2026-11-30'])
      expect((await t.app.inject({ method: 'GET', url: `/api/admin${url}` })).statusCode).toBe(401);
    const backwards = await admin('GET', '/documents?from=2026-11-30&to=2026-11-01');
    expect(backwards.statusCode).toBe(400);
    expect(JSON.stringify(backwards.json())).toContain('to');
    expect((await admin('GET', '/documents?from=2026-01-01&to=2026-12-31')).statusCode).toBe(400);
    expect((await admin('GET', '/documents?from=2026-02-30&to=2026-03-01')).statusCode).toBe(400);
  });

  it('gives the accountant every invoice and credit note of a period as one PDF', async () => {
    const { orderNumber } = await voucherOrder();
    const listed = (await admin('GET', `/orders/${orderNumber}/documents`)).json();
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    const answer = await admin('GET', `/documents?from=${day}&to=${day}`);
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-disposition']).toBe(`attachment; filename="documents-${day}-to-${day}.pdf"`);
    const text = await textOf(answer.rawPayload);
    const invoices = [...text.matchAll(/Invoice number (INV-\d{6})/g)].map((m) => m[1]);
    const notes = [...text.matchAll(/Credit note number (CN-\d{6})/g)].map((m) => m[1]);
    expect(invoices).toContain(listed.invoice.number);
    expect(invoices).toEqual([...invoices].sort());
    expect(notes.length).toBeGreaterThan(0);
    const other = await admin('GET', '/documents?from=2020-01-01&to=2020-01-31');
    expect(await textOf(other.rawPayload)).toContain('No documents were issued in this period.');
  });

  it('refuses a period with more documents than one PDF holds, before drawing any', async () => {
    const p = await fx.product(1000, 10);
    await paidByCard(t, p.stockId);
    await paidByCard(t, p.stockId);
    const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    const drawn: unknown[] = [];
    const documents = createDocumentsService(t.db.kysely, {
      renderer: { render: async (what) => (drawn.push(what), Buffer.alloc(0)), close: async () => {} },
      links: createDocumentLinks('s'.repeat(32)),
      invoiceOfPaidOrder: async () => undefined,
      packingSlipsOf: async () => [],
      printPictures: async () => new Map(),
      maxBatchDocuments: 1,
    });
    const refused = await documents.batchPdf({ from: day, to: day }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused).toMatchObject({ field: 'to', message: expect.stringMatching(/at most 1\b.*shorter period/) });
    expect(drawn).toEqual([]);
  });
});

describe('an order paid before invoices existed', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const opayo = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo', LOG_LEVEL: 'fatal' }, opayo));
  });
  afterAll(() => t.close());

  it('gets one invoice when it is asked for several times at once', async () => {
    const p = await fx.product(3000, 10);
    const { orderNumber } = await paidByCard(t, p.stockId);
    // As if it had been paid before migration 0026: no invoice yet, issued when first asked for.
    await t.db.kysely.deleteFrom('invoices').where('order_number', '=', orderNumber).execute();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => backOffice(t, cookie).call('GET', `/orders/${orderNumber}/invoice`)),
    );
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200]);
    const invoices = await t.db.kysely
      .selectFrom('invoices')
      .selectAll()
      .where('order_number', '=', orderNumber)
      .execute();
    expect(invoices).toHaveLength(1);
  });
});

describe('a customer’s invoice by the signed link in their e-mail', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const opayo = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo' }, opayo));
  });
  afterAll(() => t.close());

  async function paidOrderWithLink() {
    const p = await fx.product(3000, 10);
    const committed = await paidByCard(t, p.stockId);
    const mail = (await deliveredMail(t)).filter((m) => m.subject.includes(`${committed.orderNumber} is confirmed`));
    expect(mail).toHaveLength(1);
    const link = /Your VAT invoice: (\S+)/.exec(decodeQuotedPrintable(mail[0]!.raw))?.[1];
    expect(link).toMatch(
      new RegExp(`^${t.config.publicUrl}/api/documents/invoice/${committed.orderNumber}/[\\w-]{43}$`),
    );
    return { ...committed, path: new URL(link!).pathname };
  }

  it('opens the invoice without signing in', async () => {
    const { orderNumber, path } = await paidOrderWithLink();
    const answer = await t.app.inject({ method: 'GET', url: path });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/pdf');
    expect(answer.headers['cache-control']).toBe('no-store');
    const text = await textOf(answer.rawPayload);
    expect(text).toContain(`Order number ${orderNumber}`);
    // £30.00 and express delivery, £9.95.
    expect(text).toContain('Total including VAT £39.95');
  });

  it('dies with the order link: revoked, the e-mail’s and the order page’s links find nothing; staff’s still open', async () => {
    const { orderNumber, path } = await paidOrderWithLink();
    const staff = backOffice(t, cookie);
    const refunded = await staff.call('POST', `/orders/${orderNumber}/refund`, { amount: 500, reason: 'Scratched' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const links = createOrderLinks(t.config.sessionSecret ?? TEST_SESSION_SECRET);
    const documentsOfPage = async (version: number) => {
      const page = await t.app.inject({ method: 'GET', url: `/api/order-page/${links.keyOf(orderNumber, version)}` });
      expect(page.statusCode, page.body).toBe(200);
      const { invoice, creditNotes } = page.json() as { invoice: { url: string }; creditNotes: Array<{ url: string }> };
      expect(creditNotes).toHaveLength(1);
      return [invoice.url, creditNotes[0]!.url];
    };
    const statusOf = async (url: string) => (await t.app.inject({ method: 'GET', url })).statusCode;
    // The link in the confirmation e-mail, already sent, opens until the order link is revoked.
    const before = [path, ...(await documentsOfPage(1))];
    for (const url of before) expect({ url, status: await statusOf(url) }).toEqual({ url, status: 200 });

    const revoked = await staff.call('POST', `/orders/${orderNumber}/order-link/revoke`);
    expect(revoked.statusCode, revoked.body).toBe(200);
    for (const url of before) expect({ url, status: await statusOf(url) }).toEqual({ url, status: 404 });
    // The new order page's links open, and staff's own, behind their sign-in, never change.
    const after = await documentsOfPage(2);
    expect(after).not.toEqual(before.slice(1));
    for (const url of after) expect({ url, status: await statusOf(url) }).toEqual({ url, status: 200 });
    const listed = (await staff.call('GET', `/orders/${orderNumber}/documents`)).json();
    for (const url of [listed.invoice.url, listed.creditNotes[0].url]) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect({ url, status: answer.statusCode }).toEqual({ url, status: 200 });
    }
  });

  it('finds nothing by a link changed to another order, another kind or another signature', async () => {
    const first = await paidOrderWithLink();
    const second = await paidOrderWithLink();
    const signature = first.path.split('/').at(-1)!;
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      `/api/documents/invoice/${second.orderNumber}/${signature}`,
      `/api/documents/credit-note/${first.orderNumber}/${signature}`,
      `/api/documents/invoice/${first.orderNumber}/${flipped}`,
    ]) {
      const answer = await t.app.inject({ method: 'GET', url: path });
      expect(answer.statusCode, path).toBe(404);
      // The same answer as for a document that does not exist: a guess learns nothing.
      expect(answer.json().error.message).toBe('There is no such document');
    }
    const malformed = await t.app.inject({ method: 'GET', url: `/api/documents/invoice/${first.orderNumber}/short` });
    expect(malformed.statusCode).toBe(400);
  });
});

describe('who took the payment and who made the refund, as the documents name them', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const paypal = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYPAL_INTEGRATION: 'checkout', LOG_LEVEL: 'error' }, paypal));
  });
  afterAll(() => t.close());

  const admin = (url: string, payload?: object) => backOffice(t, cookie).call(payload ? 'POST' : 'GET', url, payload);

  /** An order paid through PayPal Checkout, refunded by `amount`: its invoice's and credit note's text. */
  async function refundedOrder(amount: number, beforeRefund?: (orderNumber: number) => Promise<unknown>) {
    const p = await fx.product(2500, 10);
    const committed = await placeOrder(t, p.stockId, 2);
    await t.app.inject({ method: 'GET', url: (await approvedPaypalReturn(t, committed.orderCode)).returnUrl });
    expect((await orderRow(t, committed.orderNumber)).status).toBe('paid');
    await beforeRefund?.(committed.orderNumber);
    const refunded = await admin(`/orders/${committed.orderNumber}/refund`, { amount, reason: 'Returned' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const listed = (await admin(`/orders/${committed.orderNumber}/documents`)).json();
    const text = async (url: string) => textOf((await admin(url.replace('/api/admin', ''))).rawPayload);
    return { invoice: await text(listed.invoice.url), creditNote: await text(listed.creditNotes[0].url) };
  }

  it('names PayPal for a payment and a refund through PayPal Checkout', async () => {
    const { invoice, creditNote } = await refundedOrder(1000);
    expect(invoice).toMatch(/Paid in full by PayPal on \d/);
    expect(creditNote).toContain('Refunded by PayPal.');
  });

  it('names the shop for a refund staff made outside it and recorded', async () => {
    // Taken by a provider this shop cannot refund through (as an Opayo Form payment): recorded.
    const { creditNote } = await refundedOrder(500, (orderNumber) =>
      t.db.kysely
        .updateTable('orders')
        .set({ payment_provider: 'opayo' })
        .where('order_number', '=', orderNumber)
        .execute(),
    );
    expect(creditNote).toContain('Refunded by the shop directly.');
  });
});

describe('a signed link opened over and over', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let cookie: string;
  const opayo = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx, cookie } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo', RATE_LIMIT_FACTOR: '1' }, opayo));
  });
  afterAll(() => t.close());

  it('is limited per address, so a stranger cannot keep the drawing thread from staff', async () => {
    // Every opening draws the PDF in the one thread the back office prints its batches in: from
    // one address, 20 a minute, then 429 without drawing (docs/rules.md#limits-on-one-client).
    const p = await fx.product(3000, 10);
    const { orderNumber } = await paidByCard(t, p.stockId);
    const mail = (await deliveredMail(t)).find((m) => m.subject.includes(`${orderNumber} is confirmed`));
    const path = new URL(/Your VAT invoice: (\S+)/.exec(decodeQuotedPrintable(mail!.raw))![1]!).pathname;
    const from = (remoteAddress: string) => t.app.inject({ method: 'GET', url: path, remoteAddress });
    for (let i = 0; i < 20; i++) expect((await from('198.51.100.31')).statusCode).toBe(200);
    expect((await from('198.51.100.31')).statusCode).toBe(429);
    expect((await from('198.51.100.32')).statusCode).toBe(200);
    expect((await backOffice(t, cookie).call('GET', '/packing-slips')).statusCode).toBe(200);
  });
});

describe('invoice numbers', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  const opayo = injectedPaypal();

  beforeAll(async () => {
    ({ t, fx } = await shopForPayments({ PAYMENT_PROVIDER: 'opayo', LOG_LEVEL: 'error' }, opayo));
  });
  afterAll(() => t.close());

  it('stay gapless and unique while 50 payments land at once on two instances', async () => {
    // Two instances share PostgreSQL. SQLite serves one (its embedded default); two in this one
    // process would wait for each other's write lock on the one event loop, which two processes do not.
    const second = testDialect === 'postgres' ? await createSecondInstance(t) : { app: t.app, close: async () => {} };
    try {
      const p = await fx.product(1000, 100);
      const orders = [];
      for (let i = 0; i < 50; i++) orders.push(await placeOrder(t, p.stockId, 1));
      // Each shopper pays in the sandbox; their returns reach the two instances in turn, all at once.
      const returns = await Promise.all(
        orders.map(async (order) => {
          const registration = (
            await t.app.inject({
              method: 'GET',
              url: `/api/sagepay-config/${order.orderNumber}?code=${order.orderCode}`,
            })
          ).json();
          const paid = await t.app.inject({
            method: 'POST',
            url: '/sandbox/opayo/pay',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: new URLSearchParams({
              Crypt: registration.crypt,
              card: '4929000000006',
              action: 'pay',
            }).toString(),
          });
          const back = new URL(paid.headers.location as string);
          return `${back.pathname}${back.search}`;
        }),
      );
      const answers = await Promise.all(
        returns.map((url, i) => (i % 2 === 0 ? t.app : second.app).inject({ method: 'GET', url })),
      );
      expect(answers.map((answer) => answer.statusCode)).toEqual(answers.map(() => 303));
      const invoices = await t.db.kysely
        .selectFrom('invoices')
        .select(['invoice_number', 'order_number'])
        .orderBy('invoice_number')
        .execute();
      expect(invoices).toHaveLength(50);
      expect(invoices.map((row) => row.invoice_number)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      expect(new Set(invoices.map((row) => row.order_number))).toEqual(new Set(orders.map((o) => o.orderNumber)));
    } finally {
      await second.close();
    }
  });
});
