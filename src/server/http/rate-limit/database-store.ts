import type { FastifyRateLimitOptions, FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { RateLimitRepository } from './rate-limit.repository.ts';

/** How often an instance clears ended windows out of the table. */
const CLEANUP_EVERY_MS = 60_000;

/**
 * A store for @fastify/rate-limit that counts in the shop's own database, so that several
 * instances behind one load balancer share each limit (ADR 0005) without another service to run.
 * Each route gets a child store whose keys carry the route, as the plugin's keys are only the
 * client's address.
 */
export function databaseRateLimitStore(repository: RateLimitRepository): FastifyRateLimitStoreCtor {
  let lastCleanup = 0;
  const cleanUp = (now: number) => {
    if (now - lastCleanup < CLEANUP_EVERY_MS) return;
    lastCleanup = now;
    // Best effort: a failed clean-up only leaves rows that the next one removes.
    repository.deleteEnded(now).catch(() => undefined);
  };

  class DatabaseStore implements FastifyRateLimitStore {
    private readonly prefix: string;
    constructor(options: FastifyRateLimitOptions & { routeInfo?: { method?: string | string[]; url?: string } }) {
      const route = options.routeInfo;
      // Fastify answers HEAD with the GET route's handler, and makes it a route of its own: the two
      // share one count, or HEAD would double every GET limit.
      const method = String(route?.method) === 'HEAD' ? 'GET' : String(route?.method);
      this.prefix = route?.url ? `${method} ${route.url} ` : '';
    }

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
      const now = Date.now();
      repository.hit(this.prefix + key, timeWindow, now).then(
        ({ hits, windowEndsAt }) => {
          cleanUp(now);
          callback(null, { current: hits, ttl: Math.max(0, windowEndsAt - now) });
        },
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: FastifyRateLimitOptions & { routeInfo?: { method?: string | string[]; url?: string } }) {
      return new DatabaseStore(routeOptions);
    }
  }
  return DatabaseStore as unknown as FastifyRateLimitStoreCtor;
}
