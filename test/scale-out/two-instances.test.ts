import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommitResponse, DeliveryMethodRate, PricedBasket } from '../../src/contract/basket.ts';
import type { Product, SearchResponse } from '../../src/contract/catalog.ts';
import type { Db } from '../../src/server/db/database.ts';
import { call } from '../helpers/api-client.ts';
import { address, guest } from '../helpers/checkout-fixtures.ts';
import { mailQueueDrained, readOutbox } from '../helpers/outbox.ts';
import { startRoundRobinProxy, type RoundRobinProxy } from '../helpers/round-robin-proxy.ts';
import { runScript } from '../helpers/run-process.ts';
import { startShop, type ShopProcess } from '../helpers/shop-process.ts';
import { createEmptyDatabase, type TestDatabase } from '../helpers/test-db.ts';

/**
 * Scale-out (docs/rules.md#operations): two instances of the shop, each its own process, on one
 * database behind a round-robin proxy. Both start at once on an empty database (migrations and seed
 * run once), a checkout's steps alternate between them, and the payment notification may land on
 * either.
 */
describe('two instances on one database', () => {
  let database: TestDatabase;
  let db: Db;
  let proxy: RoundRobinProxy;
  let a: ShopProcess;
  let b: ShopProcess;
  let outboxDir: string;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    outboxDir = mkdtempSync(join(tmpdir(), 'shop-outbox-'));
    let instances: string[] = [];
    proxy = await startRoundRobinProxy(() => instances);
    const env = {
      DATABASE_URL: database.processUrl,
      PUBLIC_URL: proxy.url,
      SEED_DEMO: 'true',
      MAIL_OUTBOX_DIR: outboxDir,
      PAYMENT_PROVIDER: 'paypal',
    };
    [a, b] = await Promise.all([startShop(env), startShop(env)]);
    instances = [a.url, b.url];
    db = database.connect();
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await proxy?.close();
    await database?.drop();
    rmSync(outboxDir, { recursive: true, force: true });
  });

  /** A demo product with at least `units` in stock on its first size. */
  async function productInStock(
    units: number,
    skip = 0,
  ): Promise<{ product: Product; stockId: number; stock: number }> {
    const search = await call<SearchResponse>(a.url, '/api/search', { body: { pageSize: 60 } });
    const found = search.body.results.filter((p) => (p.stocks[0]?.stock ?? 0) >= units)[skip];
    if (!found) throw new Error('no product in stock');
    const stock = found.stocks[0]!;
    return { product: found, stockId: stock.productStockId, stock: stock.stock };
  }

  it('migrated and seeded the database once, although both started on it together', async () => {
    const migrations = await sql<{ name: string }>`select name from schema_migrations`.execute(db.kysely);
    expect(migrations.rows.length).toBeGreaterThan(0);
    expect(new Set(migrations.rows.map((m) => m.name)).size).toBe(migrations.rows.length);
    const [fromA, fromB] = await Promise.all([a.url, b.url].map((url) => call<unknown[]>(url, '/api/brands')));
    expect(fromA!.body).toEqual(fromB!.body);
    expect((fromA!.body as unknown[]).length).toBeGreaterThan(0);
  });

  it('runs a checkout whose steps alternate between the instances, and takes the payment on either', async () => {
    const { product, stockId, stock } = await productInStock(2);
    const items = [{ productStockId: stockId, requestedQty: 2 }];
    // Step 1 (A): the cart checks the basket.
    const verified = await call<PricedBasket>(a.url, '/api/verify-basket', { body: { items } });
    expect(verified.status).toBe(200);
    // Step 2 (B): delivery methods for that total.
    const methods = await call<DeliveryMethodRate[]>(b.url, `/api/delivery-methods/1/${verified.body.itemsTotal}`);
    const method = methods.body[0]!;
    // Step 3 (A): the review prices the whole basket.
    const reviewed = await call<PricedBasket>(a.url, '/api/verify-basket', {
      body: { items, guest, billingAddress: address, deliveryAddress: address, deliveryMethodRateId: method.id },
    });
    expect(reviewed.body.items[0]?.hasError).toBe(false);
    // Step 4 (B): the order is committed.
    const committed = await call<CommitResponse>(b.url, '/api/basket', {
      body: {
        items,
        guest,
        billingAddress: address,
        deliveryAddress: address,
        deliveryMethodRateId: method.id,
        totalPriceIncludingDelivery: reviewed.body.totalPriceIncludingDelivery,
      },
    });
    if (!committed.body.ok) throw new Error(`not committed: ${committed.text}`);
    const { orderCode, orderNumber } = committed.body;
    // Step 5 (A): the order can be recovered; step 6 (B): the PayPal handoff is built.
    expect((await call(a.url, `/api/recover-basket/${orderCode}`)).status).toBe(200);
    const handoff = await call<{ url: string; fields: Array<{ name: string; value: string }> }>(
      b.url,
      `/api/paypal-handoff/${orderCode}`,
    );
    const fields = Object.fromEntries(handoff.body.fields.map((f) => [f.name, f.value]));
    // Step 7 (A's sandbox): the shopper pays; the IPN goes through the proxy to one instance, whose
    // validation postback goes through the proxy again, usually to the other.
    const paid = await call(a.url, '/sandbox/paypal/pay', { form: fields });
    expect(paid.status).toBe(303);
    // Step 8 (B): the confirmation page asks for the order's status.
    const status = await call<{ status: string; transactionId: string | null }>(
      b.url,
      `/api/order-status/${orderCode}`,
    );
    expect(status.body.status).toBe('paid');
    const after = await call<Product>(a.url, `/api/products/${product.urlKey}`);
    expect(after.body.stocks[0]?.stock).toBe(stock - 2);
    await mailQueueDrained(db);
    expect(readOutbox(outboxDir).filter((m) => m.subject === `Your order ${orderNumber} is confirmed`)).toHaveLength(1);

    // The same signed IPN, replayed 10 times at once across both instances, changes nothing more.
    const ipn = proxy.bodiesSentTo('/api/payments/paypal/ipn').find((body) => body.includes(`invoice=${orderNumber}&`));
    expect(ipn).toBeDefined();
    const replays = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        fetch(`${i % 2 ? a.url : b.url}/api/payments/paypal/ipn`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: ipn,
        }),
      ),
    );
    expect(replays.map((r) => r.status)).toEqual(Array(10).fill(200));
    const events = await db.kysely.selectFrom('payment_events').select('event_key').execute();
    expect(events.filter((e) => e.event_key === `paypal:${status.body.transactionId}:Completed`)).toHaveLength(1);
    expect((await call<Product>(b.url, `/api/products/${product.urlKey}`)).body.stocks[0]?.stock).toBe(stock - 2);
    await mailQueueDrained(db);
    expect(readOutbox(outboxDir).filter((m) => m.subject === `Your order ${orderNumber} is confirmed`)).toHaveLength(1);
  });

  it('releases expired reservations once when two instances sweep at the same moment', async () => {
    const { product, stockId, stock } = await productInStock(3, 1);
    const orderCodes: string[] = [];
    const itemsTotal = product.stocks[0]!.price;
    const method = (await call<DeliveryMethodRate[]>(a.url, `/api/delivery-methods/1/${itemsTotal}`)).body[0]!;
    for (const url of [a.url, b.url, a.url]) {
      const items = [{ productStockId: stockId, requestedQty: 1 }];
      const committed = await call<CommitResponse>(url, '/api/basket', {
        body: { items, guest, billingAddress: address, deliveryAddress: address, deliveryMethodRateId: method.id },
      });
      if (!committed.body.ok) throw new Error(`not committed: ${committed.text}`);
      orderCodes.push(committed.body.orderCode);
    }
    expect((await call<Product>(a.url, `/api/products/${product.urlKey}`)).body.stocks[0]?.stock).toBe(stock - 3);
    await db.kysely
      .updateTable('orders')
      .set({ reserved_until: new Date(Date.now() - 60_000).toISOString() })
      .where('order_code', 'in', orderCodes)
      .execute();
    const sweeps = await Promise.all(
      [1, 2].map(() => runScript('test/helpers/scripts/sweep-once.ts', { DATABASE_URL: database.processUrl })),
    );
    for (const sweep of sweeps) expect(sweep, sweep.stderr).toMatchObject({ code: 0 });
    const released = sweeps.map((sweep) => Number(/released (\d+)/.exec(sweep.stdout)?.[1]));
    expect(released[0]! + released[1]!).toBe(3);
    expect((await call<Product>(b.url, `/api/products/${product.urlKey}`)).body.stocks[0]?.stock).toBe(stock);
    const statuses = await db.kysely
      .selectFrom('orders')
      .select('status')
      .where('order_code', 'in', orderCodes)
      .execute();
    expect(statuses.map((s) => s.status)).toEqual(['expired', 'expired', 'expired']);
  });
});
