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

  it('lets other work that arrived meanwhile run once the searches of a turn have had their budget', async () => {
    // Each search takes 3 ms of the clock; a turn's budget is 4 ms, so two run back to back and
    // then what else arrived (a product page) has its turn before the third.
    let clock = 0;
    const inTurn = createSearchTurns(1, { budgetMs: 4, now: () => clock });
    const happened: string[] = [];
    const searches = [1, 2, 3, 4].map((n) =>
      inTurn(async () => {
        happened.push(`search ${n}`);
        clock += 3;
      }),
    );
    setImmediate(() => happened.push('product page'));
    await Promise.all(searches);
    expect(happened).toEqual(['search 1', 'search 2', 'product page', 'search 3', 'search 4']);
  });

  it('runs one search a turn when each takes the whole budget', async () => {
    let clock = 0;
    const inTurn = createSearchTurns(1, { budgetMs: 4, now: () => clock });
    const happened: string[] = [];
    const searches = [1, 2, 3].map((n) =>
      inTurn(async () => {
        happened.push(`search ${n}`);
        clock += 5;
      }),
    );
    setImmediate(() => happened.push('product page'));
    await Promise.all(searches);
    expect(happened).toEqual(['search 1', 'product page', 'search 2', 'search 3']);
  });
});
