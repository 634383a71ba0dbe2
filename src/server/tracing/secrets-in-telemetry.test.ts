import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { approvedPaypalReturn, placeOrder } from '../../../test/helpers/paid-orders.ts';
import { injectedPaypal } from '../../../test/helpers/paypal-checkout.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { testDialect } from '../../../test/helpers/test-db.ts';
import { TEST_SESSION_SECRET } from '../../../test/helpers/csrf.ts';
import { createOrderLinks } from '../orders/order-links.ts';
import { startTracing, type Tracing } from './tracing.ts';

/**
 * Secrets that travel in addresses (docs/rules.md#operations): reset and activation tokens, the
 * staff's set-password token, order codes, PayPal's return token and payer id, Opayo's Crypt. A
 * log line or a span is read by whoever runs the logging or tracing service; none may carry one.
 * Each request below carries a planted value; every log line and every span (names, attributes,
 * events), the provider calls' included, is searched for them.
 */
describe('secrets in addresses never reach the logs or the traces', () => {
  const exporter = new InMemorySpanExporter();
  const lines: string[] = [];
  const logStream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  const paypal = injectedPaypal();
  let tracing: Tracing;
  let t: TestApp;

  beforeAll(async () => {
    tracing = startTracing({
      endpoint: 'http://127.0.0.1:1',
      serviceName: 'shop',
      dbSystem: testDialect === 'postgres' ? 'postgresql' : 'sqlite',
      exporter,
    });
    t = await createTestApp({
      env: { PAYPAL_INTEGRATION: 'checkout', RATE_LIMIT_FACTOR: '100', LOG_LEVEL: 'debug' },
      paymentFetch: paypal.fetch,
      tracing,
      logStream,
    });
    paypal.state.app = t.server;
  });
  afterAll(async () => {
    await t.close();
    await tracing.shutdown();
  });

  const planted = (label: string) => `${label}${randomBytes(12).toString('hex')}`;

  it('redacts every token, code and payment reference from request logs and spans', async () => {
    const fx = await checkoutFixtures(t.db);
    const order = await placeOrder(t, (await fx.product(2500, 5)).stockId);
    const other = await placeOrder(t, (await fx.product(1500, 5)).stockId);
    const { token: paypalToken, returnUrl } = await approvedPaypalReturn(t, order.orderCode);
    const payerId = new URL(returnUrl, 'http://shop').searchParams.get('PayerID') ?? '';

    const secrets = {
      resetToken: planted('Reset'),
      verifyToken: planted('Verify'),
      staffSetPasswordToken: planted('StaffSet'),
      orderCode: order.orderCode,
      otherOrderCode: other.orderCode,
      paypalToken,
      payerId,
      opayoCrypt: `@${randomBytes(48).toString('hex').toUpperCase()}`,
      cancelToken: planted('Cancel'),
      standardTx: planted('Tx'),
      // The customer's order page: the key of the paid order's link, and one that opens nothing.
      orderPageKey: createOrderLinks(TEST_SESSION_SECRET).keyOf(order.orderNumber, 1),
      wrongOrderPageKey: `${other.orderNumber}.${randomBytes(32).toString('base64url')}`,
    };
    const addresses = [
      `/reset-password/${secrets.resetToken}`,
      // The router reads paths in any case and with a trailing slash: so must the redaction.
      `/RESET-PASSWORD/${secrets.resetToken}/`,
      `/verify-account/${secrets.verifyToken}`,
      `/admin/set-password/${secrets.staffSetPasswordToken}`,
      `/order-recovery/${secrets.orderCode}`,
      `/api/recover-basket/${secrets.otherOrderCode}`,
      `/api/order-status/${secrets.orderCode}`,
      `/api/payment-handoff/${secrets.otherOrderCode}`,
      `/api/sagepay-config/${other.orderNumber}?code=${secrets.otherOrderCode}`,
      // PayPal Checkout's return: the capture is made, with the token in PayPal's own address.
      returnUrl,
      `/payment-declined?token=${secrets.cancelToken}`,
      `/api/payments/opayo/return?crypt=${secrets.opayoCrypt}`,
      `/checkout-confirm?token=${secrets.paypalToken}&PayerID=${secrets.payerId}`,
      // PayPal Standard's return: `cm` is the custom field, the order's code.
      `/checkout-confirm?tx=${secrets.standardTx}&st=Completed&amt=34.95&cc=GBP&cm=${secrets.orderCode}`,
      // After the return above, which paid the order: its page opens, and a wrong key's does not.
      `/api/order-page/${secrets.orderPageKey}`,
      `/order/${secrets.orderPageKey}`,
      `/api/order-page/${secrets.wrongOrderPageKey}`,
      // An outside attack's: the key with a segment after it, or a doubled slash before it.
      `/order/${secrets.orderPageKey}/returns`,
      `/order/${secrets.orderPageKey}/cancel`,
      `/order/${secrets.orderPageKey}/x`,
      `//order/${secrets.orderPageKey}`,
      `/api//order-page/${secrets.orderPageKey}`,
    ];
    for (const url of addresses) {
      const answer = await t.app.inject({ method: 'GET', url });
      expect(answer.statusCode, url).toBeLessThan(500);
    }
    const paid = await t.db.kysely
      .selectFrom('orders')
      .select('status')
      .where('order_code', '=', order.orderCode)
      .executeTakeFirstOrThrow();
    expect(paid.status).toBe('paid');
    expect((await t.app.inject({ method: 'GET', url: `/api/order-page/${secrets.orderPageKey}` })).statusCode).toBe(
      200,
    );
    await tracing.flush();

    const spans = exporter.getFinishedSpans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      events: span.events,
      status: span.status,
    }));
    // The test would prove nothing if neither were written.
    expect(lines.some((line) => line.includes('/api/order-status/'))).toBe(true);
    expect(spans.some((span) => String(span.attributes['url.path']).startsWith('/api/order-status/'))).toBe(true);
    expect(spans.some((span) => String(span.attributes['url.full']).includes('/capture'))).toBe(true);
    // What is left still says which page or call it was.
    expect(lines.some((line) => line.includes('"url":"/reset-password/REDACTED"'))).toBe(true);
    expect(
      spans.some(
        (span) => span.attributes['url.path'] === '/api/sagepay-config/' + other.orderNumber + '?code=REDACTED',
      ),
    ).toBe(true);

    const logText = lines.join('');
    const spanText = JSON.stringify(spans);
    const found = Object.entries(secrets).flatMap(([name, value]) => [
      ...(logText.includes(value) ? [`${name} in the log`] : []),
      ...(spanText.includes(value) ? [`${name} in a span`] : []),
    ]);
    expect(found).toEqual([]);
  });
});
