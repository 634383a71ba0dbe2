/**
 * Searches take turns with the rest of the instance's work (docs/decisions/0017-in-process-search-index.md,
 * docs/decisions/0029-a-sale-measured-open-loop.md): at most `concurrency` run at once, and once the
 * searches run back to back have had `budgetMs` of the event loop, the next starts on a later turn
 * (setImmediate), so Node reads what else has arrived (a product page, a checkout, a health check)
 * and answers it, instead of running a crowd of searches while it waits. A search's own work is
 * short (a few milliseconds); what this bounds is the queue in front of everything else.
 *
 * The budget, not one search a turn: under a sale's load a turn of the loop takes 10 ms and more,
 * so one search a turn capped searches at the turns' rate, below the 120 a second offered, and
 * their queue grew until they timed out (bench:sale, PostgreSQL).
 */
export function createSearchTurns(concurrency: number, options: { budgetMs?: number; now?: () => number } = {}) {
  const budgetMs = options.budgetMs ?? 4;
  const now = options.now ?? (() => performance.now());
  let running = 0;
  const waiting: Array<() => void> = [];
  // When the searches running back to back in this turn began; undefined: none in this turn yet.
  let burstStartedAt: number | undefined;

  function startInTurn(start: () => void): void {
    setImmediate(() => {
      burstStartedAt = now();
      start();
    });
  }

  function release(): void {
    const next = waiting.shift();
    if (!next) {
      running--;
      return;
    }
    if (burstStartedAt !== undefined && now() - burstStartedAt < budgetMs) next();
    else startInTurn(next);
  }

  return async function inTurn<T>(task: () => Promise<T>): Promise<T> {
    if (running < concurrency) {
      running++;
      await new Promise<void>((resolve) => startInTurn(resolve));
    } else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
