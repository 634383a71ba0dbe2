import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../src/contract/basket.ts';
import { call } from '../helpers/api-client.ts';
import { checkoutFixtures, commitBody, guest } from '../helpers/checkout-fixtures.ts';
import { manyShoppersOneAddress, startShop, type ShopProcess } from '../helpers/shop-process.ts';
import { csrfTokenForCookies } from '../helpers/csrf.ts';

const TEST_CSRF_TOKEN = csrfTokenForCookies(undefined);
import { createEmptyDatabase, type TestDatabase } from '../helpers/test-db.ts';

/**
 * SIGTERM (a deploy, a scale-in) lets the requests in flight finish. Each shopper gets either a
 * whole answer, a 503 telling the load balancer to go elsewhere, or a refused connection; never a
 * 500 or a cut answer; and every order answered as made exists.
 *
 * A request the shop has read is never cut (its id is in the shop's log, so a network error for it
 * is a cut answer, not a refusal), and a client that stalls mid-body cannot hold the stop beyond
 * its limit: the shop answers it and exits 0 (docs/rules.md#operations).
 */
describe('graceful shutdown', () => {
  let database: TestDatabase | undefined;
  let shop: ShopProcess | undefined;
  const sockets: Socket[] = [];

  async function startWithStock(): Promise<{ shop: ShopProcess; database: TestDatabase; stockId: number }> {
    database = await createEmptyDatabase();
    // info: the shop logs every request it reads, with the id the client sent.
    // One test client places every order: the per-client limits must not be what answers it.
    shop = await startShop({
      DATABASE_URL: database.processUrl,
      LOG_LEVEL: 'info',
      ...manyShoppersOneAddress,
    });
    const stockId = (await (await checkoutFixtures(database.connect())).product(900, 10_000)).stockId;
    return { shop, database, stockId };
  }

  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await shop?.kill();
    await database?.drop();
    shop = undefined;
    database = undefined;
  });

  /** Whether the shop read the request with this id (it logs each one it reads). */
  const shopRead = (shop: ShopProcess, id: string) => shop.output().includes(`"reqId":"${id}"`);

  /** Sends `text` on a new connection; `closed` is everything that came back once the shop closed it. */
  function rawClient(shop: ShopProcess, text: string): { socket: Socket; closed: Promise<string> } {
    const socket = connect(shop.port, '127.0.0.1');
    sockets.push(socket);
    socket.write(text);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<string>((resolve) => {
      socket.on('close', () => resolve(received));
      socket.on('error', () => undefined);
    });
    return { socket, closed };
  }

  /** The head of a JSON POST as the shop's page sends it (CSRF token included). */
  const postHead = (shop: ShopProcess, path: string, body: string, id: string) =>
    [
      `POST ${path} HTTP/1.1`,
      `Host: 127.0.0.1:${shop.port}`,
      'Content-Type: application/json',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${id}`,
      `X-XSRF-Token: ${TEST_CSRF_TOKEN}`,
      `Cookie: XSRF-TOKEN=${TEST_CSRF_TOKEN}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');

  it('finishes the requests in flight when told to stop, and exits cleanly', async () => {
    const { shop, database, stockId } = await startWithStock();
    const exited = new Promise<number | null>((resolve) => shop.onExit(resolve));
    // A shopper on a slow line: the order's body arrives in two parts, the second after the stop
    // began. The shop has read the request, so it owes a whole answer.
    const slowBody = JSON.stringify(
      commitBody([{ productStockId: stockId, requestedQty: 1 }], { guest: { ...guest, firstname: 'slow' } }),
    );
    const slow = rawClient(shop, postHead(shop, '/api/basket', slowBody, 'slow-body') + slowBody.slice(0, 100));
    await expect.poll(() => shopRead(shop, 'slow-body'), { timeout: 5_000 }).toBe(true);
    let stopping = false;
    const outcomes = await Promise.all(
      Array.from({ length: 150 }, async (_, i) => {
        const id = `shutdown-${i}`;
        // Spread over about half a second, so the stop finds requests before, in and after flight.
        await new Promise((resolve) => setTimeout(resolve, i * 3));
        try {
          const answer = await call(shop.url, '/api/basket', {
            headers: { 'x-request-id': id },
            body: commitBody([{ productStockId: stockId, requestedQty: 1 }], {
              guest: { ...guest, firstname: `g${i}` },
            }),
          });
          if (!stopping) {
            stopping = true;
            shop.signal('SIGTERM');
            setTimeout(() => slow.socket.write(slowBody.slice(100)), 200);
          }
          if (answer.status !== 200) return { id, status: answer.status };
          const result = commitResponseSchema.parse(answer.body);
          return { id, status: 200, code: result.ok ? result.orderCode : undefined };
        } catch (error) {
          return { id, failed: String((error as Error & { cause?: { code?: string } }).cause?.code ?? error) };
        }
      }),
    );
    expect(await exited).toBe(0);
    const answered = outcomes.filter((o) => 'status' in o && o.status === 200);
    expect(answered.length).toBeGreaterThan(0);
    for (const outcome of outcomes) {
      if ('status' in outcome) expect([200, 503]).toContain(outcome.status);
      // A connection error is a refusal only if the shop never read the request; otherwise the
      // shop cut an answer it owed.
      else expect(shopRead(shop, outcome.id), `${outcome.id} was read, then cut: ${outcome.failed}`).toBe(false);
    }
    const slowAnswer = await slow.closed;
    expect(slowAnswer).toMatch(/^HTTP\/1\.1 200 /);
    const slowResult = commitResponseSchema.parse(JSON.parse(slowAnswer.slice(slowAnswer.indexOf('\r\n\r\n') + 4)));
    const codes = answered.flatMap((o) => ('code' in o && o.code ? [o.code] : []));
    if (slowResult.ok) codes.push(slowResult.orderCode);
    const stored = await database.connect().kysely.selectFrom('orders').select('order_code').execute();
    // Exactly the orders answered as made: none made whose answer was lost.
    expect(stored.map((o) => o.order_code).sort()).toEqual([...codes].sort());
    expect(shop.output()).not.toMatch(/"level":50/);
  });

  it('answers a client that stalls mid-body and exits 0', async () => {
    const { shop } = await startWithStock();
    const exited = new Promise<number | null>((resolve) => shop.onExit(resolve));
    const body = JSON.stringify({ name: 'Stalled', email: 'stalled@example.com', message: 'Hello '.repeat(20) });
    // Headers and half the body, then nothing; and another whose headers never end.
    const stalledBody = rawClient(
      shop,
      postHead(shop, '/api/contact', body, 'stalled-body') + body.slice(0, body.length / 2),
    );
    const stalledHeaders = rawClient(shop, `GET /api/brands HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Request`);
    await expect.poll(() => shopRead(shop, 'stalled-body'), { timeout: 5_000 }).toBe(true);

    shop.signal('SIGTERM');
    // How long the stop takes is not asserted (a busy machine makes timings lie): the stalled clients
    // are answered and cut, not waited for, which is what lets it end.
    const code = await exited;
    expect(code, shop.output()).toBe(0);
    // The stalled request was read, so it is answered (503, the shop's error shape), not cut.
    const answer = await stalledBody.closed;
    expect(answer).toMatch(/^HTTP\/1\.1 503 /);
    expect(answer).toMatch(/connection: close/i);
    expect(answer).toContain('"error":{"code":');
    await stalledHeaders.closed;
    expect(shop.output()).not.toMatch(/"level":50/);
  }, 40_000);
});
