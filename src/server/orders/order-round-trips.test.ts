import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../contract/basket.ts';
import { checkoutFixtures, commitBody, guest } from '../../../test/helpers/checkout-fixtures.ts';
import { statementCounter } from '../../../test/helpers/statements.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { markOrderPaid } from './order-lifecycle.ts';
import { findOrderByCode } from './orders.repository.ts';
import { createOrdersService } from './orders.service.ts';

/**
 * Each statement of the money path waits for the database once more (on PostgreSQL, a round trip
 * while the rows it locked stay locked), so a commit, a replacement, an expiry and a late payment
 * send a fixed number of statements whatever the basket's size
 * (docs/decisions/0018-checkout-in-fixed-round-trips.md). A basket of ten lines may not send more
 * than a basket of one.
 */
describe('statements sent on the money path, by basket size', () => {
  let t: TestApp;
  let fx: Awaited<ReturnType<typeof checkoutFixtures>>;
  const { log, counted } = statementCounter();
  let shoppers = 0;

  beforeAll(async () => {
    t = await createTestApp({ log });
    fx = await checkoutFixtures(t.db);
  });
  afterAll(() => t.close());

  /** A basket of `size` lines, each of its own product with stock to spare. */
  async function basketOf(size: number) {
    const lines = [];
    for (let i = 0; i < size; i++)
      lines.push({ productStockId: (await fx.product(1500, 50)).stockId, requestedQty: 2 });
    return lines;
  }

  async function commit(
    lines: Awaited<ReturnType<typeof basketOf>>,
    orderCode?: string,
    appliedVouchers?: Array<{ code: string }>,
  ) {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/basket',
      payload: commitBody(lines, {
        guest: { ...guest, email: `counted${++shoppers}@example.com` },
        ...(orderCode ? { orderCode } : {}),
        ...(appliedVouchers ? { appliedVouchers } : {}),
      }),
    });
    const result = commitResponseSchema.parse(answer.json());
    if (!result.ok) throw new Error(`expected an order: ${answer.body}`);
    return result;
  }

  const expectNoMoreFor10LinesThan1 = (one: string[], ten: string[]) =>
    expect(ten.length, `1 line:\n${one.join('\n')}\n\n10 lines:\n${ten.join('\n')}`).toBeLessThanOrEqual(one.length);

  it('a commit', async () => {
    const [one, ten] = [await basketOf(1), await basketOf(10)];
    const small = await counted(() => commit(one));
    const large = await counted(() => commit(ten));
    expect(await fx.stockOf(ten[9]!.productStockId)).toBe(48);
    expectNoMoreFor10LinesThan1(small.statements, large.statements);
  });

  it('takes the stock and the voucher last, in one statement right before the commit, and numbers and writes the order with its lines in one', async () => {
    // A popular size or a sale's voucher is a row every shopper's commit locks: held from that
    // statement to the commit, each statement after it was one more wait for every shopper behind.
    const code = await fx.voucher({ amount: 10 });
    const lines = await basketOf(2);
    const sent = (await counted(() => commit(lines, undefined, [{ code }]))).statements;
    // The commit's transaction; a voucher's use is also counted against the client's rate limit,
    // outside it, and the limits' sweep may run meanwhile.
    const statements = sent
      .slice(sent.findIndex((statement) => /^begin/i.test(statement)))
      .filter((statement) => !statement.includes('rate_limit_hits'));
    const writesStock = statements.findIndex((statement) => /update\s+"?product_stocks"?/i.test(statement));
    const writesOrder = statements.filter((statement) => /insert into "?order/i.test(statement));
    const afterStock = statements.slice(writesStock + 1);
    expect(statements.at(-1)).toMatch(/^commit$/i);
    if (t.db.dialect === 'postgres') {
      // One statement takes both and only the commit follows; the order, its number and its lines
      // are one statement too; the buyer's unpaid orders are counted with the pricing facts:
      // begin, the buyer's locks, the facts and the count, the order, the stock, commit.
      expect(statements[writesStock], statements.join('\n')).toMatch(/update\s+"?vouchers"?/i);
      expect(afterStock).toEqual(['commit']);
      expect(writesOrder, statements.join('\n')).toHaveLength(1);
      expect(writesOrder[0]).toMatch(/nextval\('order_number_seq'\)/);
      expect(writesOrder[0]).toMatch(/insert into "order_lines"/);
      expect(statements, statements.join('\n')).toHaveLength(6);
    } else {
      // SQLite has no updates in a WITH, and no round trips: the voucher's is its own statement.
      expect(
        afterStock.map((statement) => statement.split(' ').slice(0, 2).join(' ')),
        statements.join('\n'),
      ).toEqual(['update "vouchers"', 'commit']);
      expect(writesOrder).toHaveLength(2);
    }
    expect(await fx.stockOf(lines[1]!.productStockId)).toBe(48);
  });

  it('a commit replacing the unpaid order its basket came back from', async () => {
    const [one, ten] = [await basketOf(1), await basketOf(10)];
    const [oneOrder, tenOrder] = [await commit(one), await commit(ten)];
    const small = await counted(() => commit(one, oneOrder.orderCode));
    const large = await counted(() => commit(ten, tenOrder.orderCode));
    expect((await findOrderByCode(t.db.kysely, tenOrder.orderCode))?.status).toBe('cancelled');
    // The replaced order gave its units back and the new one took them again.
    expect(await fx.stockOf(ten[9]!.productStockId)).toBe(48);
    expectNoMoreFor10LinesThan1(small.statements, large.statements);
  });

  it('an expiry, and a payment arriving after it', async () => {
    const later = createOrdersService(t.db.kysely, {
      reservationMinutes: 60,
      clock: () => new Date(Date.now() + 24 * 60 * 60_000),
    });
    await later.releaseExpiredReservations();
    const expireAfterCommitting = async (lines: Awaited<ReturnType<typeof basketOf>>) => {
      const order = await commit(lines);
      const expiry = await counted(() => later.releaseExpiredReservations());
      expect(expiry.answer).toBe(1);
      expect(await fx.stockOf(lines[0]!.productStockId)).toBe(50);
      return { order, expiry };
    };
    const [one, ten] = [await basketOf(1), await basketOf(10)];
    const small = await expireAfterCommitting(one);
    const large = await expireAfterCommitting(ten);
    expectNoMoreFor10LinesThan1(small.expiry.statements, large.expiry.statements);

    const payLate = async (orderCode: string) => {
      const order = await findOrderByCode(t.db.kysely, orderCode);
      return counted(() =>
        t.db.kysely
          .transaction()
          .execute((trx) =>
            markOrderPaid(
              trx,
              order!,
              { provider: 'paypal', providerStatus: 'Completed', transactionId: `LATE-${orderCode}` },
              new Date().toISOString(),
            ),
          ),
      );
    };
    const smallPaid = await payLate(small.order.orderCode);
    const largePaid = await payLate(large.order.orderCode);
    expect(largePaid.answer).toBe('paid late');
    expect(await fx.stockOf(ten[9]!.productStockId)).toBe(48);
    expectNoMoreFor10LinesThan1(smallPaid.statements, largePaid.statements);
  });
});
