import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { encodeFields, decodeFields, decryptCrypt, encryptCrypt } from './opayo-crypt.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { decodeQuotedPrintable, deliveredMail } from '../../../test/helpers/outbox.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

const BUSINESS = 'payments@raag-instruments.example';
const PASSWORD = 'LocalSandboxKey1';

describe('payments: PayPal IPN, Opayo return, configs and status', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  let verdict = 'VERIFIED';
  const validations: string[] = [];
  beforeAll(async () => {
    const paymentFetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      validations.push(String(init?.body));
      return new Response(verdict);
    }) as unknown as typeof fetch;
    t = await createTestApp({ paymentFetch });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());
  beforeEach(() => {
    verdict = 'VERIFIED';
    validations.length = 0;
  });

  async function newOrder(price = 2500, qty = 1, stock = 5, extra: Parameters<typeof commitBody>[1] = {}) {
    const p = await fx.product(price, stock);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody([{ productStockId: p.stockId, requestedQty: qty }], extra),
    });
    const result = commitResponseSchema.parse(response.json());
    if (!result.ok) throw new Error('expected an order');
    const order = await t.db.kysely
      .selectFrom('orders')
      .selectAll()
      .where('order_code', '=', result.orderCode)
      .executeTakeFirstOrThrow();
    return { ...result, order, product: p };
  }
  const sagepay = (orderNumber: number, orderCode: string) =>
    t.app.inject({ method: 'GET', url: `/api/sagepay-config/${orderNumber}?code=${orderCode}` });
  const orderRow = (code: string) =>
    t.db.kysely.selectFrom('orders').selectAll().where('order_code', '=', code).executeTakeFirstOrThrow();
  const ipn = (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/payments/paypal/ipn',
      payload: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
  const paid = (
    orderNumber: number,
    total: string,
    txn = `TXN${Math.random().toString(36).slice(2, 12).toUpperCase()}`,
  ) => ({
    mc_gross: total,
    invoice: String(orderNumber),
    payment_status: 'Completed',
    txn_id: txn,
    mc_currency: 'GBP',
    receiver_email: BUSINESS,
  });

  it('names the provider and gives the PayPal settings', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/payment-provider' })).body).toBe('paypal');
    expect((await t.app.inject({ method: 'GET', url: '/api/paypal-config' })).json()).toEqual({
      url: 'http://localhost:3000/sandbox/paypal/webscr',
      business: BUSINESS,
      notifyUrl: 'http://localhost:3000/api/payments/paypal/ipn',
      returnUrl: 'http://localhost:3000/checkout-confirm',
      cancelUrl: 'http://localhost:3000/payment-declined',
    });
  });

  it('builds the PayPal cart from the committed order', async () => {
    const { orderCode, orderNumber, product } = await newOrder(1250, 2);
    await t.db.kysely
      .updateTable('order_lines')
      .set({ title: 'Tabla & Dayan' })
      .where('product_stock_id', '=', product.stockId)
      .execute();
    const handoff = (await t.app.inject({ method: 'GET', url: `/api/paypal-handoff/${orderCode}` })).json();
    const fields = Object.fromEntries(handoff.fields.map((f: { name: string; value: string }) => [f.name, f.value]));
    expect(handoff.url).toBe('http://localhost:3000/sandbox/paypal/webscr');
    expect(fields).toMatchObject({
      cmd: '_cart',
      upload: '1',
      business: BUSINESS,
      currency_code: 'GBP',
      tax_cart: '0.00',
      handling_cart: '9.95',
      invoice: String(orderNumber),
      item_name_1: 'Tabla and Dayan (Size 1)',
      amount_1: '12.50',
      quantity_1: '2',
      notify_url: 'http://localhost:3000/api/payments/paypal/ipn',
    });
    expect((await t.app.inject({ method: 'GET', url: '/api/paypal-handoff/AAAAAAAAAAAAAAAAAAAAAA' })).statusCode).toBe(
      404,
    );
  });

  it('marks an order paid only for a VERIFIED, Completed IPN to us for its amount in GBP, posted back byte for byte', async () => {
    const { orderCode, orderNumber } = await newOrder(2500, 1);
    const fields = paid(orderNumber, '34.95');
    const response = await ipn(fields);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
    expect(validations).toEqual([`cmd=_notify-validate&${new URLSearchParams(fields).toString()}`]);
    expect(await orderRow(orderCode)).toMatchObject({
      status: 'paid',
      transaction_id: fields.txn_id,
      payment_provider: 'paypal',
      payment_status: 'Completed',
    });
    const status = (await t.app.inject({ method: 'GET', url: `/api/order-status/${orderCode}` })).json();
    expect(status).toEqual({
      orderNumber,
      status: 'paid',
      provider: 'paypal',
      transactionId: fields.txn_id,
      orderPagePath: expect.stringMatching(new RegExp(`^/order/${orderNumber}\\.[A-Za-z0-9_-]{43}$`)),
      cancelledByShopper: false,
    });
    const mail = (await deliveredMail(t)).find((m) => m.subject === `Your order ${orderNumber} is confirmed`);
    expect(mail?.to).toBe('asha@example.com');
    const body = decodeQuotedPrintable(mail?.raw ?? '');
    expect(body).toContain('Total paid: £34.95 (including VAT of £5.83)');
    expect(body).toContain('Delivery, Express delivery: £9.95');
    expect(body).toContain(fields.txn_id);
  });

  it.each([
    ['INVALID from PayPal (a forged body)', (f: Record<string, string>) => f, 'INVALID'],
    ['a wrong receiver', (f: Record<string, string>) => ({ ...f, receiver_email: 'thief@example.com' }), 'VERIFIED'],
    ['a wrong amount', (f: Record<string, string>) => ({ ...f, mc_gross: '0.01' }), 'VERIFIED'],
    ['a wrong currency', (f: Record<string, string>) => ({ ...f, mc_currency: 'USD' }), 'VERIFIED'],
    ['Pending', (f: Record<string, string>) => ({ ...f, payment_status: 'Pending' }), 'VERIFIED'],
    ['Refunded', (f: Record<string, string>) => ({ ...f, payment_status: 'Refunded' }), 'VERIFIED'],
    ['Reversed', (f: Record<string, string>) => ({ ...f, payment_status: 'Reversed' }), 'VERIFIED'],
  ])('leaves the order unpaid for %s', async (_, change, answer) => {
    const { orderCode, orderNumber } = await newOrder(2500, 1);
    verdict = answer;
    expect((await ipn(change(paid(orderNumber, '34.95')))).statusCode).toBe(200);
    expect((await orderRow(orderCode)).status).toBe('pending_payment');
  });

  it('records a Pending IPN without marking the order paid, then the Completed one pays it', async () => {
    const { orderCode, orderNumber } = await newOrder(2500, 1);
    const fields = paid(orderNumber, '34.95');
    await ipn({ ...fields, payment_status: 'Pending' });
    expect(await orderRow(orderCode)).toMatchObject({ status: 'pending_payment', payment_status: 'Pending' });
    await ipn(fields);
    expect((await orderRow(orderCode)).status).toBe('paid');
  });

  it('applies 10 concurrent copies of one IPN once, and refuses a transaction id already used', async () => {
    const { orderCode, orderNumber } = await newOrder(2500, 1);
    const fields = paid(orderNumber, '34.95');
    const responses = await Promise.all(Array.from({ length: 10 }, () => ipn(fields)));
    expect(responses.every((r) => r.statusCode === 200)).toBe(true);
    expect((await orderRow(orderCode)).status).toBe('paid');
    expect((await deliveredMail(t)).filter((m) => m.subject === `Your order ${orderNumber} is confirmed`)).toHaveLength(
      1,
    );
    const events = await t.db.kysely
      .selectFrom('payment_events')
      .selectAll()
      .where('event_key', '=', `paypal:${fields.txn_id}:Completed`)
      .execute();
    expect(events).toHaveLength(1);
    const other = await newOrder(2500, 1);
    await ipn({ ...fields, invoice: String(other.orderNumber) });
    expect((await orderRow(other.orderCode)).status).toBe('pending_payment');
  });

  it('answers 503 when PayPal cannot be asked, so PayPal sends the IPN again', async () => {
    const failing = await createTestApp({
      paymentFetch: (async () => {
        throw new Error('offline');
      }) as unknown as typeof fetch,
    });
    try {
      const p = await (await checkoutFixtures(failing.db)).product(2500, 5);
      const committed = commitResponseSchema.parse(
        (
          await failing.app.inject({
            method: 'POST',
            url: '/api/basket',
            payload: commitBody([{ productStockId: p.stockId, requestedQty: 1 }]),
          })
        ).json(),
      );
      if (!committed.ok) throw new Error('expected an order');
      const response = await failing.app.inject({
        method: 'POST',
        url: '/api/payments/paypal/ipn',
        payload: `txn_id=1&invoice=${committed.orderNumber}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(response.statusCode).toBe(503);
    } finally {
      await failing.close();
    }
  });

  it('records a payment that arrives after the reservation expired, taking the stock again or flagging it', async () => {
    const late = await newOrder(2500, 2, 4);
    await t.db.kysely.updateTable('orders').set({ status: 'expired' }).where('id', '=', late.order.id).execute();
    await ipn(paid(late.orderNumber, '59.95'));
    expect(await orderRow(late.orderCode)).toMatchObject({
      status: 'paid',
      payment_note: expect.stringContaining('taken again'),
    });
    expect(await fx.stockOf(late.product.stockId)).toBe(0);

    const gone = await newOrder(2500, 2, 2);
    await t.db.kysely.updateTable('orders').set({ status: 'expired' }).where('id', '=', gone.order.id).execute();
    await t.db.kysely.updateTable('product_stocks').set({ stock: 1 }).where('id', '=', gone.product.stockId).execute();
    await ipn(paid(gone.orderNumber, '59.95'));
    expect(await orderRow(gone.orderCode)).toMatchObject({
      status: 'paid',
      payment_note: expect.stringContaining('could not'),
    });
    expect(await fx.stockOf(gone.product.stockId)).toBe(1);
  });

  describe('Opayo', () => {
    function responseCrypt(fields: Array<[string, string]>) {
      return encryptCrypt(encodeFields(fields), PASSWORD);
    }
    const back = (crypt: string) =>
      t.app.inject({ method: 'GET', url: `/api/payments/opayo/return?crypt=${encodeURIComponent(crypt)}` });

    it('gives a Crypt with every required field, within the limits and in ISO-8859-1', async () => {
      const { orderNumber, orderCode } = await newOrder(2500, 1, 5, {
        guest: { ...guest, firstname: 'Zoë Anna-Maria Christabel', lastname: 'Ångström & Søn' },
      });
      const config = (await sagepay(orderNumber, orderCode)).json();
      expect(config).toMatchObject({
        vendor: 'raaglocal',
        txType: 'PAYMENT',
        vpsProtocol: '4.00',
        endpointUrl: 'http://localhost:3000/sandbox/opayo/vspform-register.vsp',
      });
      const fields = decodeFields(decryptCrypt(config.crypt, PASSWORD));
      expect(fields).toMatchObject({
        Amount: '34.95',
        Currency: 'GBP',
        BillingFirstnames: 'Zoë Anna-Maria Chris',
        BillingSurname: 'Ångström and Søn',
        BillingCountry: 'GB',
        DeliveryPostCode: 'B70 7NJ',
        CustomerEMail: 'asha@example.com',
        SuccessURL: 'http://localhost:3000/api/payments/opayo/return',
      });
      expect(fields.VendorTxCode).toMatch(new RegExp(`^RAAG-${orderNumber}-[0-9a-f]{12}$`));
      expect(fields.VendorTxCode!.length).toBeLessThanOrEqual(40);
      for (const name of [
        'VendorTxCode',
        'Amount',
        'Currency',
        'Description',
        'SuccessURL',
        'FailureURL',
        'BillingSurname',
        'BillingFirstnames',
        'BillingAddress1',
        'BillingCity',
        'BillingPostCode',
        'BillingCountry',
        'DeliverySurname',
        'DeliveryFirstnames',
        'DeliveryAddress1',
        'DeliveryCity',
        'DeliveryPostCode',
        'DeliveryCountry',
        'CustomerEMail',
      ]) {
        expect(fields[name], name).toBeTruthy();
      }
      expect((await sagepay(99999999, orderCode)).statusCode).toBe(404);
    });

    it('records OK with its VPSTxId and TxAuthNo once, however often the shopper comes back', async () => {
      const { orderCode, orderNumber } = await newOrder(2500, 1);
      const crypt = responseCrypt([
        ['VendorTxCode', `RAAG-${orderNumber}-0123456789ab`],
        ['VPSTxId', '{B7792365-F7F9-6E20-ACD1-390C5CEBDDAF}'],
        ['Status', 'OK'],
        ['TxAuthNo', '19052426'],
        ['Amount', '34.95'],
      ]);
      const responses = await Promise.all(Array.from({ length: 10 }, () => back(crypt.toLowerCase())));
      for (const r of responses) {
        expect(r.statusCode).toBe(303);
        expect(r.headers.location).toBe('/checkout-confirm');
      }
      expect(await orderRow(orderCode)).toMatchObject({
        status: 'paid',
        transaction_id: '{B7792365-F7F9-6E20-ACD1-390C5CEBDDAF}',
        auth_code: '19052426',
        payment_provider: 'opayo',
      });
      expect((await sagepay(orderNumber, orderCode)).statusCode).toBe(404);
    });

    it.each(['NOTAUTHED', 'REJECTED', 'ABORT', 'ERROR'])(
      'records %s as a failed payment that may be tried again',
      async (status) => {
        const { orderCode, orderNumber } = await newOrder(2500, 1);
        await back(
          responseCrypt([
            ['VendorTxCode', `RAAG-${orderNumber}-0123456789ab`],
            ['VPSTxId', `{${randomUUID().toUpperCase()}}`],
            ['Status', status],
            ['Amount', '34.95'],
          ]),
        );
        expect(await orderRow(orderCode)).toMatchObject({ status: 'payment_failed', payment_status: status });
        // Only ABORT is the shopper's own Cancel: the confirmation says cancelled, not declined.
        const answer = await t.app.inject({ method: 'GET', url: `/api/order-status/${orderCode}` });
        expect(answer.json()).toMatchObject({ status: 'payment_failed', cancelledByShopper: status === 'ABORT' });
        const mail = (await deliveredMail(t)).find(
          (m) => m.subject === `Your payment for order ${orderNumber} did not go through`,
        );
        expect(decodeQuotedPrintable(mail?.raw ?? '')).toContain(`/order-recovery/${orderCode}`);
        expect((await sagepay(orderNumber, orderCode)).statusCode).toBe(200);
        expect((await t.app.inject({ method: 'GET', url: `/api/recover-basket/${orderCode}` })).statusCode).toBe(200);
      },
    );

    it('ignores a return whose amount is not the order total, or that it cannot read, with the usual answer', async () => {
      const { orderCode, orderNumber } = await newOrder(2500, 1);
      const answers = [
        await back(
          responseCrypt([
            ['VendorTxCode', `RAAG-${orderNumber}-0123456789ab`],
            ['VPSTxId', `{${randomUUID().toUpperCase()}}`],
            ['Status', 'OK'],
            ['Amount', '0.01'],
          ]),
        ),
        await back('@ZZZZ'),
        await back(encryptCrypt('Status=OK', 'AnotherPassword1')),
        await back(
          responseCrypt([
            ['VendorTxCode', 'someone-else'],
            ['Status', 'OK'],
          ]),
        ),
      ];
      expect((await orderRow(orderCode)).status).toBe('pending_payment');
      for (const answer of answers) {
        expect(answer.statusCode).toBe(303);
        expect(answer.headers.location).toBe('/checkout-confirm');
      }
    });
  });

  describe('the sandboxes', () => {
    const form = (url: string, fields: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url,
        payload: new URLSearchParams(fields).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });

    it('PayPal: shows the cart marked as a sandbox, and verifies only bodies it sent', async () => {
      const { orderCode } = await newOrder(1250, 2);
      const handoff = (await t.app.inject({ method: 'GET', url: `/api/paypal-handoff/${orderCode}` })).json();
      const fields = Object.fromEntries(handoff.fields.map((f: { name: string; value: string }) => [f.name, f.value]));
      const pageResponse = await form('/sandbox/paypal/webscr', fields);
      expect(pageResponse.statusCode).toBe(200);
      expect(pageResponse.body).toContain('SANDBOX');
      expect(pageResponse.body).toContain('£34.95');
      expect(
        (await form('/sandbox/paypal/webscr', { ...fields, notify_url: 'http://evil.example/ipn' })).statusCode,
      ).toBe(400);
      const forged = await t.app.inject({
        method: 'POST',
        url: '/sandbox/paypal/ipn-validate',
        payload: 'cmd=_notify-validate&txn_id=1',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(forged.body).toBe('INVALID');
      const badlySigned = await t.app.inject({
        method: 'POST',
        url: '/sandbox/paypal/ipn-validate',
        payload: 'cmd=_notify-validate&txn_id=1&mc_gross=34.95&verify_sign=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(badlySigned.body).toBe('INVALID');
    });

    it('Opayo: validates the Crypt, takes a test card and returns an encrypted answer', async () => {
      const { orderNumber, orderCode } = await newOrder(2500, 1);
      const config = (await sagepay(orderNumber, orderCode)).json();
      const post = { VPSProtocol: '4.00', TxType: 'PAYMENT', Vendor: config.vendor, Crypt: config.crypt };
      const cardPage = await form('/sandbox/opayo/vspform-register.vsp', post);
      expect(cardPage.statusCode).toBe(200);
      expect(cardPage.body).toContain('£34.95');
      expect((await form('/sandbox/opayo/vspform-register.vsp', { ...post, Crypt: '@00' })).statusCode).toBe(400);
      for (const [card, action, status] of [
        ['4929000000006', 'pay', 'OK'],
        ['4000000000000002', 'pay', 'NOTAUTHED'],
        ['4000000000000003', 'pay', 'REJECTED'],
        ['', 'cancel', 'ABORT'],
      ]) {
        const result = await form('/sandbox/opayo/pay', {
          Crypt: config.crypt,
          card: card as string,
          action: action as string,
        });
        expect(result.statusCode).toBe(303);
        const location = new URL(result.headers.location as string);
        expect(location.pathname).toBe('/api/payments/opayo/return');
        const answer = decodeFields(decryptCrypt(location.searchParams.get('crypt') ?? '', PASSWORD));
        expect(answer).toMatchObject({
          Status: status,
          Amount: '34.95',
          VendorTxCode: decodeFields(decryptCrypt(config.crypt, PASSWORD)).VendorTxCode,
        });
      }
    });
  });
});
