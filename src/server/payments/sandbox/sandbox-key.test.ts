import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecondInstance, createTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';

/**
 * In development without SESSION_SECRET, the PayPal sandbox once signed its IPNs with a key derived
 * from PUBLIC_URL, which anyone can compute: a forged "Completed" IPN was then VERIFIED. The key is
 * random, made once per database and shared by every instance on it (docs/rules.md#operations).
 */
describe('the PayPal sandbox signing key', () => {
  const received: string[] = [];
  let notifications: Server;
  let publicUrl: string;
  let first: TestApp;
  let other: TestApp;

  const ipnFields = {
    mc_gross: '10.00',
    invoice: '1001',
    payment_status: 'Completed',
    txn_id: 'FORGED0000000001',
    txn_type: 'cart',
    mc_currency: 'GBP',
    receiver_email: 'payments@raag-instruments.example',
  };

  const validate = (app: TestApp['app'], ipn: string) =>
    app.inject({
      method: 'POST',
      url: '/sandbox/paypal/ipn-validate',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `cmd=_notify-validate&${ipn}`,
    });

  /** Pays in the sandbox and returns the IPN it sent to the shop's notify_url. */
  async function genuineIpn(app: TestApp['app']): Promise<string> {
    const before = received.length;
    const answer = await app.inject({
      method: 'POST',
      url: '/sandbox/paypal/pay',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        business: 'payments@raag-instruments.example',
        invoice: '1001',
        item_name_1: 'Dhol',
        amount_1: '10.00',
        quantity_1: '1',
        currency_code: 'GBP',
        notify_url: `${publicUrl}/api/payments/paypal/ipn`,
        return: `${publicUrl}/checkout/done`,
      }).toString(),
    });
    expect(answer.statusCode).toBe(303);
    expect(received.length).toBe(before + 1);
    return received.at(-1) as string;
  }

  beforeAll(async () => {
    notifications = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        received.push(body);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => notifications.listen(0, '127.0.0.1', resolve));
    const address = notifications.address();
    publicUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    // Development, local sandbox, no SESSION_SECRET: two shops with the same PUBLIC_URL.
    const env = { NODE_ENV: 'development', PUBLIC_URL: publicUrl, LOG_LEVEL: 'silent' };
    first = await createTestApp({ env });
    other = await createTestApp({ env });
  });
  afterAll(async () => {
    await first.close();
    await other.close();
    await new Promise((resolve) => notifications.close(resolve));
  });

  it('refuses an IPN signed with a key derived from PUBLIC_URL', async () => {
    const ipn = new URLSearchParams(ipnFields).toString();
    for (const key of [`paypal-sandbox:${publicUrl}`, publicUrl]) {
      const forged = `${ipn}&verify_sign=${createHmac('sha256', key).update(ipn).digest('base64url')}`;
      expect((await validate(first.app, forged)).body).toBe('INVALID');
    }
  });

  it('verifies its own IPNs on every instance of the same database, and on no other database', async () => {
    const ipn = await genuineIpn(first.app);
    expect((await validate(first.app, ipn)).body).toBe('VERIFIED');
    const second = await createSecondInstance(first);
    try {
      expect((await validate(second.app, ipn)).body).toBe('VERIFIED');
      expect((await validate(second.app, await genuineIpn(second.app))).body).toBe('VERIFIED');
    } finally {
      await second.close();
    }
    expect((await validate(other.app, ipn)).body).toBe('INVALID');
    expect((await validate(first.app, await genuineIpn(other.app))).body).toBe('INVALID');
  });
});
