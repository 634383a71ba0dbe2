/**
 * Searches take turns with the rest of the instance's work (docs/decisions/0017-in-process-search-index.md): at most
 * `concurrency` run at once, and each starts on a later turn of the event loop (setImmediate), so
 * between two searches Node reads what else has arrived (a product page, a checkout, a health
 * check) and answers it, instead of running a crowd of searches back to back while it waits.
 * A search's own work is short (a few milliseconds); what this bounds is the queue in front of
 * everything else.
 */
export function createSearchTurns(concurrency: number) {
  let running = 0;
  const waiting: Array<() => void> = [];

  function release(): void {
    const next = waiting.shift();
    if (next) setImmediate(next);
    else running--;
  }

  return async function inTurn<T>(task: () => Promise<T>): Promise<T> {
    if (running < concurrency) {
      running++;
      await new Promise<void>((resolve) => setImmediate(resolve));
    } else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
