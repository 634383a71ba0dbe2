import { describe, expect, it } from 'vitest';
import { createSearchTurns } from './search-turns.ts';

describe('search turns', () => {
  it('runs at most the given number of searches at once, each in the order it came', async () => {
    const inTurn = createSearchTurns(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const search = (n: number) =>
      inTurn(async () => {
        started.push(n);
        most = Math.max(most, ++running);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        return n;
      });
    expect(await Promise.all([1, 2, 3, 4, 5].map(search))).toEqual([1, 2, 3, 4, 5]);
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(most).toBe(2);
  });

  it('lets other work that arrived meanwhile run between two searches', async () => {
    const inTurn = createSearchTurns(1);
    const happened: string[] = [];
    // Searches that never wait (as SQLite's do not) would otherwise run back to back.
    const searches = [1, 2, 3].map((n) => inTurn(async () => void happened.push(`search ${n}`)));
    setImmediate(() => happened.push('product page'));
    await Promise.all(searches);
    expect(happened).toEqual(['search 1', 'product page', 'search 2', 'search 3']);
  });
});
