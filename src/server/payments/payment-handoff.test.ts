import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentHandoffAnswerSchema } from '../../contract/payments.ts';
import { checkoutFixtures } from '../../../test/helpers/checkout-fixtures.ts';
import { placeOrder } from '../../../test/helpers/paid-orders.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * GET /api/payment-handoff/{code}: one call the web app makes for any provider, answering the form
 * to post or the address to go to (docs/rules.md#payments), so the page never names a provider.
 */
describe.each([
  ['paypal', { PAYMENT_PROVIDER: 'paypal', PAYPAL_INTEGRATION: 'standard' }, '/sandbox/paypal/webscr', 'cmd'],
  ['opayo', { PAYMENT_PROVIDER: 'opayo' }, '/sandbox/opayo/vspform-register.vsp', 'Crypt'],
])('the payment handoff through %s', (_name, env, path, field) => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  beforeAll(async () => {
    t = await createTestApp({ env });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  it('answers the form the server built for an order awaiting payment, and 404 for any other code', async () => {
    const p = await fx.product(2500, 5);
    const committed = await placeOrder(t, p.stockId);
    const answer = await t.app.inject({ method: 'GET', url: `/api/payment-handoff/${committed.orderCode}` });
    expect(answer.statusCode).toBe(200);
    const handoff = paymentHandoffAnswerSchema.parse(answer.json());
    expect(handoff).toMatchObject({ kind: 'form', url: `http://localhost:3000${path}` });
    expect(handoff.kind === 'form' && handoff.fields.map((f) => f.name)).toContain(field);
    const unknown = await t.app.inject({ method: 'GET', url: '/api/payment-handoff/AAAAAAAAAAAAAAAAAAAAAA' });
    expect(unknown.statusCode).toBe(404);
  });
});
