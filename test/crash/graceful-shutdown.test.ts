import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../src/contract/basket.ts';
import type { Db } from '../../src/server/db/database.ts';
import { call } from '../helpers/api-client.ts';
import { checkoutFixtures, commitBody, guest } from '../helpers/checkout-fixtures.ts';
import { startShop, type ShopProcess } from '../helpers/shop-process.ts';
import { createEmptyDatabase, type TestDatabase } from '../helpers/test-db.ts';

/**
 * Issue 7: SIGTERM (a deploy, a scale-in) lets the requests in flight finish. Each shopper gets
 * either a whole answer, a 503 telling the load balancer to go elsewhere, or a refused
 * connection; never a 500 or a cut answer; and every order answered as made exists.
 */
describe('graceful shutdown', () => {
  let database: TestDatabase;
  let db: Db;
  let shop: ShopProcess;
  let stockId: number;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    shop = await startShop({ DATABASE_URL: database.processUrl });
    db = database.connect();
    stockId = (await (await checkoutFixtures(db)).product(900, 10_000)).stockId;
  }, 60_000);
  afterAll(async () => {
    await shop.kill();
    await database.drop();
  });

  it('finishes the requests in flight when told to stop, and exits cleanly', async () => {
    const exited = new Promise<number | null>((resolve) => shop.onExit(resolve));
    let stopping = false;
    const outcomes = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        try {
          const answer = await call(shop.url, '/api/basket', {
            body: commitBody([{ productStockId: stockId, requestedQty: 1 }], {
              guest: { ...guest, firstname: `g${i}` },
            }),
          });
          if (!stopping) {
            stopping = true;
            shop.signal('SIGTERM');
          }
          if (answer.status !== 200) return { status: answer.status };
          const result = commitResponseSchema.parse(answer.body);
          return { status: 200, code: result.ok ? result.orderCode : undefined };
        } catch (error) {
          return { refused: String((error as Error & { cause?: { code?: string } }).cause?.code ?? error) };
        }
      }),
    );
    expect(await exited).toBe(0);
    const answered = outcomes.filter((o) => 'status' in o && o.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    for (const outcome of outcomes) {
      if ('status' in outcome) expect([200, 503]).toContain(outcome.status);
      else
        expect(outcome.refused).toMatch(
          /ECONNREFUSED|ECONNRESET|EPIPE|UND_ERR_SOCKET|UND_ERR_CLOSED|other side closed/,
        );
    }
    const codes = answered.flatMap((o) => ('code' in o && o.code ? [o.code] : []));
    const stored = await db.kysely.selectFrom('orders').select('order_code').execute();
    expect(stored.map((o) => o.order_code)).toEqual(expect.arrayContaining(codes));
    expect(shop.output()).not.toMatch(/"level":50/);
  });
});
