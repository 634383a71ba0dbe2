import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { MetricsHooks } from './metrics.ts';

/**
 * Metrics on a listener of their own (METRICS_PORT on METRICS_HOST, 127.0.0.1 unless told), never on
 * the shop's port: what they tell (order rates, queue depths) is for the operator, not for anyone on
 * the internet, and the proxy in front need not know to hide a path (docs/decisions/0016-metrics-and-traces.md).
 */

const listeners = new WeakMap<FastifyInstance, Server>();

/** Where an app's metrics listener is, once the app is ready (tests listen on port 0). */
export function metricsAddressOf(app: FastifyInstance): AddressInfo | undefined {
  const address = listeners.get(app)?.address();
  return address && typeof address === 'object' ? address : undefined;
}

/**
 * With METRICS_PORT set: counts every answer (by its route's pattern) and serves GET /metrics on
 * its own listener from the app's ready to its close. Answers the hooks the features call, or
 * undefined when metrics are off, so they count nothing at all; prom-client is not even loaded
 * then (it adds 60 ms to a start, which must serve again within 2 s of a restart).
 */
export async function registerMetrics(
  app: FastifyInstance,
  db: Db,
  config: Pick<Config, 'metrics'>,
): Promise<MetricsHooks | undefined> {
  const settings = config.metrics;
  if (!settings) return undefined;
  const { createShopMetrics } = await import('./metrics.ts');
  const metrics = createShopMetrics(db, (error) => app.log.warn({ err: error }, 'metrics: database figures not read'));
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics: scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('metrics could not be collected\n');
      },
    );
  });
  listeners.set(app, server);
  app.addHook('onReady', async () => {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'EADDRINUSE'
            ? new Error(
                `METRICS_PORT ${settings.port} on ${settings.host} is in use by another program: stop it, or set METRICS_PORT to another port.`,
              )
            : error,
        ),
      );
      server.listen(settings.port, settings.host, () => resolve());
    });
    const address = metricsAddressOf(app);
    app.log.info(`metrics at http://${settings.host}:${address?.port ?? settings.port}/metrics`);
  });
  app.addHook('onClose', async () => {
    if (!server.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return metrics;
}
