import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { waitForHandlersOnClose } from './in-flight.ts';

describe('closing the app while a handler runs', () => {
  it('waits for a handler whose client has hung up', async () => {
    const app = Fastify();
    // A limit far beyond the test's timeout: only the handler's end can let close() finish.
    waitForHandlersOnClose(app, 600_000);
    const events: string[] = [];
    let handlerStarted = (): void => undefined;
    const started = new Promise<void>((resolve) => (handlerStarted = resolve));
    let releaseHandler = (): void => undefined;
    const released = new Promise<void>((resolve) => (releaseHandler = resolve));
    app.get('/slow', async () => {
      handlerStarted();
      await released;
      events.push('handler finished');
      return { ok: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const client = new AbortController();
    const request = fetch(`http://127.0.0.1:${port}/slow`, { signal: client.signal }).catch(() => 'hung up');
    await started;
    client.abort();
    expect(await request).toBe('hung up');
    const closing = app.close().then(() => events.push('closed'));
    // The server has stopped listening, so close() is under way; only now may the handler end.
    await vi.waitFor(() => expect(app.server.listening).toBe(false));
    events.push('handler released');
    releaseHandler();
    await closing;
    expect(events).toEqual(['handler released', 'handler finished', 'closed']);
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
    // The handler never ends: without the limit this would never answer and the test would fail by
    // its timeout (no wall-clock bound here: a busy machine makes one lie).
    await app.close();
    expect(app.server.listening).toBe(false);
  });
});
