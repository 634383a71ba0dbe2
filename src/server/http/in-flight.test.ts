import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { waitForHandlersOnClose } from './in-flight.ts';

describe('closing the app while a handler runs', () => {
  it('waits for a handler whose client has hung up', async () => {
    const app = Fastify();
    waitForHandlersOnClose(app, 2_000);
    const events: string[] = [];
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300));
      events.push('handler finished');
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const client = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}/slow`, { signal: client.signal }).catch(() => 'hung up');
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.abort();
    expect(await request).toBe('hung up');
    await app.close();
    events.push('closed');
    expect(events).toEqual(['handler finished', 'closed']);
  });

  it('gives up waiting at the limit', async () => {
    const app = Fastify();
    waitForHandlersOnClose(app, 100);
    app.get('/stuck', () => new Promise(() => undefined));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const client = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}/stuck`, { signal: client.signal }).catch(() => 'hung up');
    await new Promise((resolve) => setTimeout(resolve, 50));
    client.abort();
    await request;
    const started = performance.now();
    await app.close();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
