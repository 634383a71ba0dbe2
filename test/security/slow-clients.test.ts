import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Slow clients are cut off (docs/rules.md#security; attack report F7): a request whose headers or
 * body never finish arriving, or arrive a byte at a time, is answered 408 and its connection
 * closed once REQUEST_TIMEOUT_SECONDS have passed (headers get at most 10 s of it), instead of
 * holding a socket for as long as the client likes. On a listening server: app.inject() has no
 * socket to time.
 */
describe('slow clients', () => {
  let t: TestApp;
  let port: number;

  beforeAll(async () => {
    t = await createTestApp({ env: { REQUEST_TIMEOUT_SECONDS: '1' } });
    await t.server.listen({ port: 0, host: '127.0.0.1' });
    port = (t.server.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  /**
   * Opens a connection, sends `start`, then a byte every 200 ms until the server closes it; answers
   * what the server sent. No timer of its own: a server that let the trickle go on would never close
   * it, and the test would fail by its timeout (how soon it closes is the server's REQUEST_TIMEOUT).
   */
  function trickle(start: string): Promise<{ answer: string }> {
    return new Promise((resolve) => {
      let answer = '';
      const socket: Socket = connect(port, '127.0.0.1', () => socket.write(start));
      const drip = setInterval(() => socket.writable && socket.write('a'), 200);
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(drip);
        resolve({ answer });
      });
    });
  }

  it('cuts off a PayPal webhook whose body arrives a byte at a time', async () => {
    const result = await trickle(
      'POST /webhooks/paypal HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    expect(result.answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('cuts off an IPN whose headers never end', async () => {
    const result = await trickle(
      'POST /api/payments/paypal/ipn HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nX-Padding: ',
    );
    // Closed by the server (the trickle ends only then), with or without a word.
    expect(result.answer === '' || /^HTTP\/1\.1 4\d\d /.test(result.answer)).toBe(true);
  });

  it('still answers a client that sends its request at once', async () => {
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(answer.status).toBe(200);
  });
});
