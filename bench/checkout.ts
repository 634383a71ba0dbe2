import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../src/server/db/database.ts';
import { freshPostgresSchema, jsonHeaders, rotate, seedDatabase, startBenchServer } from './harness.ts';

/**
 * Checkout commits alone (npm run bench:checkout): POST /api/basket committing a 3-line order, on
 * PostgreSQL with nothing else running, to see what the commit's round trips to the database cost
 * (docs/decisions/0018-checkout-in-fixed-round-trips.md). Prints orders committed per second (counted
 * in the database afterwards, so a basket answered as changed is not counted) and the commit's
 * p50 and p99.
 *
 *   npm run bench:checkout -- [--duration 10] [--connections 10] [--lines 3]
 *                             [--postgres postgres://postgres@127.0.0.1:5432/test]
 */

const { values } = parseArgs({
  options: {
    products: { type: 'string', default: '2000' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '10' },
    lines: { type: 'string', default: '3' },
    postgres: { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/test' },
    port: { type: 'string', default: '3779' },
  },
});
const duration = Number(values.duration);
const connections = Number(values.connections);
const lines = Number(values.lines);
const port = Number(values.port);

const schema = await freshPostgresSchema(values.postgres);
try {
  await seedDatabase(schema.url, Number(values.products));
  const db = openDatabase(schema.url);
  // Entries with plenty of units, so that a run does not empty them and turn commits into refusals.
  const stockIds = (
    await db.kysely
      .selectFrom('product_stocks as s')
      .innerJoin('products as p', 'p.id', 's.product_id')
      .select('s.id')
      .where('p.status', '=', 'published')
      .where('s.stock', '>=', 10)
      .orderBy('s.id')
      .execute()
  ).map((row) => row.id);
  const server = await startBenchServer(schema.url, port, {
    // Every shopper here is the same client: the caps on unpaid orders are not what is measured.
    UNPAID_ORDERS_PER_EMAIL: '100000',
    UNPAID_ORDERS_PER_CLIENT: '100000',
    UNPAID_UNITS_PER_EMAIL: '1000000',
    UNPAID_UNITS_PER_CLIENT: '1000000',
    DATABASE_POOL_SIZE: String(connections),
  });
  try {
    const nextStock = rotate(stockIds);
    const address = { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 };
    let shopper = 0;
    const commit = () =>
      JSON.stringify({
        items: Array.from({ length: lines }, () => ({ productStockId: nextStock(), requestedQty: 1 })),
        guest: {
          titleId: 1,
          firstname: 'Checkout',
          lastname: 'Bench',
          email: `shopper${shopper++}@example.com`,
          contactNumber: '0121 496 0000',
        },
        billingAddress: address,
        deliveryAddress: address,
        deliveryMethodRateId: 3,
      });
    const run = (seconds: number) =>
      autocannon({
        url: `http://127.0.0.1:${port}`,
        connections,
        duration: seconds,
        requests: [
          {
            method: 'POST',
            path: '/api/basket',
            headers: jsonHeaders,
            setupRequest: (req) => ({ ...req, body: commit() }),
          },
        ],
      });
    const ordersNow = async () =>
      Number(
        (
          await db.kysely
            .selectFrom('orders')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    console.log(`PostgreSQL: warming up for 3 s, then committing ${lines}-line orders for ${duration} s…`);
    await run(3);
    const before = await ordersNow();
    const result = await run(duration);
    const committed = (await ordersNow()) - before;
    console.log(
      [
        `\nPostgreSQL, ${connections} connections, ${lines}-line baskets, ${duration} s\n`,
        '| orders committed/s | requests/s | p50 ms | p99 ms | errors |',
        '|---:|---:|---:|---:|---:|',
        `| ${Math.round(committed / duration)} | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${result.errors + result.timeouts + result.non2xx} |`,
      ].join('\n'),
    );
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('exit', resolve));
    await db.destroy();
  }
} finally {
  await schema.drop();
}
