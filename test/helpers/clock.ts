import type { Clock } from '../../src/server/cache/cached-loader.ts';

/**
 * A clock a test moves on by hand (createTestApp's `now`): a cache's lifetime is passed in an
 * instant, so the test neither waits it out nor depends on how fast the machine is.
 */
export function manualClock(start = 1_700_000_000_000): { now: Clock; advance(ms: number): void } {
  let at = start;
  return {
    now: () => at,
    advance(ms) {
      at += ms;
    },
  };
}
