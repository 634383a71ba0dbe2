import type { FastifyInstance, FastifyRequest } from 'fastify';

const handlerRunning = Symbol('handler running');
type Tracked = FastifyRequest & { [handlerRunning]?: boolean };

/**
 * Counts route handlers that have started and not yet produced their answer. A handler goes on
 * running when its client hangs up, and Fastify's close() does not wait for it; the process must,
 * before it closes the database under it. So the app's onClose waits (up to a limit) until none
 * is left.
 */
export function waitForHandlersOnClose(app: FastifyInstance, limitMs: number): void {
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
}
