import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const handlerRunning = Symbol('handler running');
type Tracked = FastifyRequest & { [handlerRunning]?: boolean };

/**
 * The answer to a request still arriving when the shop stops: its client may send it again to
 * another instance. Answered as a 503 with `Connection: close` (errors.ts).
 */
export class StalledRequestError extends Error {
  readonly statusCode = 503;
  readonly code = 'SHUTTING_DOWN';
}

/**
 * Counts route handlers that have started and not yet produced their answer. A handler goes on
 * running when its client hangs up, and Fastify's close() does not wait for it; the process must,
 * before it closes the database under it. So the app's onClose waits (up to a limit) until none
 * is left.
 *
 * Fastify's close() also waits for every connection to end, and a client that stops sending half
 * way through its request would hold it for ever (once a 15 s stop and exit 1; docs/rules.md#operations). So
 * `stalledAfterMs` after close() begins, a request whose body is still arriving is answered 503
 * and its connection closed, and a connection that has not finished sending its request's headers
 * is closed (there is nothing to answer yet). Requests that have arrived whole are left to finish.
 */
export function waitForHandlersOnClose(app: FastifyInstance, limitMs: number, stalledAfterMs = 5_000): void {
  let running = 0;
  let settle: (() => void) | undefined;
  app.addHook('preHandler', async (request: Tracked) => {
    request[handlerRunning] = true;
    running++;
  });
  // onSend runs once a handler's answer is ready, whether or not its client is still there.
  app.addHook('onSend', async (request: Tracked, _reply, payload) => {
    if (request[handlerRunning]) {
      request[handlerRunning] = false;
      running--;
      if (running === 0) settle?.();
    }
    return payload;
  });
  app.addHook('onClose', async () => {
    if (running === 0) return;
    await new Promise<void>((resolve) => {
      settle = resolve;
      setTimeout(resolve, limitMs).unref();
    });
  });
  releaseStalledClientsOnClose(app, stalledAfterMs);
}

function releaseStalledClientsOnClose(app: FastifyInstance, stalledAfterMs: number): void {
  const connections = new Set<Socket>();
  /** The request each connection is on, from its headers until its answer is sent. */
  const requests = new Map<Socket, IncomingMessage>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => {
      connections.delete(socket);
      requests.delete(socket);
    });
  });
  app.server.on('request', (request: IncomingMessage, response) => {
    requests.set(request.socket, request);
    response.once('close', () => {
      if (requests.get(request.socket) === request) requests.delete(request.socket);
    });
  });
  const released = new WeakSet<IncomingMessage>();
  const release = () => {
    for (const socket of connections) {
      const request = requests.get(socket);
      if (!request) {
        // Idle, or its request's headers never finished arriving.
        socket.destroy();
      } else if (!request.complete && !released.has(request) && request.listenerCount('error') > 0) {
        // The body parser is waiting on this stream: failing it makes Fastify answer the 503.
        released.add(request);
        request.emit('error', new StalledRequestError('The request did not arrive in time; the shop is stopping'));
      }
    }
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('preClose', async () => {
    timer = setTimeout(() => {
      release();
      // A request whose parser was not listening yet is looked at again shortly.
      timer = setInterval(release, 250);
      timer.unref();
    }, stalledAfterMs);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearTimeout(timer);
  });
}
