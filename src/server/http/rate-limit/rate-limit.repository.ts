import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

export interface WindowCount {
  hits: number;
  windowEndsAt: number;
}

/** The shared counters behind the rate limits: one row per route and client, for one window. */
export function createRateLimitRepository(db: Kysely<Database>) {
  return {
    /**
     * Counts one request in a single statement, so two instances counting the same client at once
     * both land: a row whose window has ended starts again at 1.
     */
    async hit(key: string, windowMs: number, now: number): Promise<WindowCount> {
      const row = await db
        .insertInto('rate_limit_hits')
        .values({ key, hits: 1, window_ends_at: now + windowMs })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet((eb) => ({
            hits: eb
              .case()
              .when('rate_limit_hits.window_ends_at', '<=', now)
              .then(1)
              .else(eb('rate_limit_hits.hits', '+', 1))
              .end(),
            window_ends_at: eb
              .case()
              .when('rate_limit_hits.window_ends_at', '<=', now)
              .then(now + windowMs)
              .else(eb.ref('rate_limit_hits.window_ends_at'))
              .end(),
          })),
        )
        .returning(['hits', 'window_ends_at'])
        .executeTakeFirstOrThrow();
      return { hits: Number(row.hits), windowEndsAt: Number(row.window_ends_at) };
    },

    /** Forgets windows that have ended; their next request would start again at 1 anyway. */
    async deleteEnded(now: number): Promise<void> {
      await db.deleteFrom('rate_limit_hits').where('window_ends_at', '<=', now).execute();
    },
  };
}

export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;
