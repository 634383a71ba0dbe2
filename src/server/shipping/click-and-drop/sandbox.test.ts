import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { clickAndDropSandboxRoutes } from './sandbox.routes.ts';

/** The sandbox on its own: what a stranger can make it keep, in a demo whose key is no secret. */
describe('the Click & Drop sandbox', () => {
  it('keeps at most its bound of orders, forgetting the oldest first', async () => {
    let time = 0;
    const app = Fastify();
    await app.register(clickAndDropSandboxRoutes, { apiKey: 'k', now: () => time, maxOrders: 3 });
    const order = (reference: string) => ({
      orderReference: reference,
      recipient: { address: { addressLine1: '1 High Street', city: 'Leeds', postcode: 'LS1 4DY', countryCode: 'GB' } },
      orderDate: '2026-11-28T09:00:00Z',
      subtotal: 10,
      shippingCostCharged: 0,
      total: 10,
    });
    const made = await app.inject({
      method: 'POST',
      url: '/orders',
      headers: { authorization: 'Bearer k' },
      payload: { items: ['A', 'B', 'C', 'D'].map(order) },
    });
    expect(made.json().successCount).toBe(4);
    time += 1000;
    const held = async (reference: string) =>
      (
        await app.inject({
          method: 'GET',
          url: `/orders/${encodeURIComponent(`"${reference}"`)}`,
          headers: { authorization: 'Bearer k' },
        })
      ).statusCode;
    expect([await held('A'), await held('B'), await held('D')]).toEqual([404, 200, 200]);
    await app.close();
  });
});
