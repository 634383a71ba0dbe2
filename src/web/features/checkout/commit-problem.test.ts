// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { refusalMessages } from '../../../contract/error-codes.ts';
import { requestJson } from '../../lib/api.ts';
import { commitProblemText } from './commit-problem.ts';

/**
 * A shopper refused an order for too many unpaid ones is told why, not "try again"
 * (docs/rules.md#limits-on-one-client).
 */
describe('the message when an order cannot be placed', () => {
  afterEach(() => vi.unstubAllGlobals());

  async function failureOf(status: number, body: unknown, headers: Record<string, string> = {}): Promise<unknown> {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify(body), { status, headers }));
    return requestJson('/api/basket', { method: 'POST', body: '{}' }).then(
      () => undefined,
      (error: unknown) => error,
    );
  }

  it('names the unpaid orders when the server refuses for them', async () => {
    const error = await failureOf(429, { error: { code: 'TOO_MANY_UNPAID_ORDERS', message: 'x' } });
    expect(commitProblemText(error)).toBe(refusalMessages.tooManyUnpaidOrders);
  });

  it('asks for a smaller order when one order is larger than the shop holds unpaid', async () => {
    const error = await failureOf(422, { error: { code: 'UNPAID_ORDER_TOO_LARGE', message: 'x' } });
    expect(commitProblemText(error)).toBe(refusalMessages.unpaidOrderTooLarge);
  });

  it('says the most one order may come to when the order is over it', async () => {
    const error = await failureOf(422, { error: { code: 'ORDER_TOTAL_TOO_LARGE', message: 'x' } });
    expect(commitProblemText(error)).toBe(refusalMessages.orderTotalTooLarge);
  });

  it('says an order of £0.00 cannot be placed when the server refuses it', async () => {
    const error = await failureOf(422, { error: { code: 'NOTHING_TO_PAY', message: 'x' } });
    expect(commitProblemText(error)).toBe(refusalMessages.nothingToPay);
  });

  it('asks for the order again when the order it replaces has been held as long as it may', async () => {
    const error = await failureOf(409, { error: { code: 'ORDER_HELD_TOO_LONG', message: 'x' } });
    expect(commitProblemText(error)).toBe(refusalMessages.orderHeldTooLong);
  });

  it('asks to wait when the client is rate-limited, and to try again otherwise', async () => {
    expect(commitProblemText(await failureOf(429, { error: { code: 'TOO_MANY_REQUESTS', message: 'x' } }))).toBe(
      refusalMessages.tooManyAttempts,
    );
    expect(commitProblemText(await failureOf(500, 'not json at all'))).toBe(
      'Your order could not be placed just now. Please try again.',
    );
  });

  it('says when to try again when the rate limit refuses the order', async () => {
    const error = await failureOf(
      429,
      { error: { code: 'TOO_MANY_REQUESTS', message: 'Rate limit exceeded' } },
      { 'retry-after': '30' },
    );
    expect(commitProblemText(error)).toBe('Too many attempts from your connection. Please try again in 30 seconds.');
  });
});
