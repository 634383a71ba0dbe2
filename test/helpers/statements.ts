import type { LogEvent } from 'kysely';

/**
 * Counts the statements a piece of work sends (docs/decisions/0018-checkout-in-fixed-round-trips.md):
 * give `log` to createTestApp, then wrap the work in `counted`.
 */
export function statementCounter() {
  let counting = false;
  let statements: string[] = [];
  return {
    log(event: LogEvent): void {
      if (counting) statements.push(event.query.sql);
    },
    /** The statements `work` sends, and what it answered. */
    async counted<T>(work: () => Promise<T>): Promise<{ answer: T; statements: string[] }> {
      statements = [];
      counting = true;
      try {
        return { answer: await work(), statements };
      } finally {
        counting = false;
      }
    },
  };
}
