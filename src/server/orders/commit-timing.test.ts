import { afterEach, describe, expect, it, vi } from 'vitest';

/**
 * bench:sale's commit timing (commit-timing.ts) is read from BENCH_COMMIT_TIMING once, when the
 * module loads: each test loads it afresh under the environment it sets.
 */
async function loadTiming(on: boolean) {
  vi.resetModules();
  if (on) vi.stubEnv('BENCH_COMMIT_TIMING', '1');
  return import('./commit-timing.ts');
}

describe('timing of a commit’s phases (BENCH_COMMIT_TIMING)', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('off, calls each step straight through and keeps nothing', async () => {
    const timing = await loadTiming(false);
    expect(timing.commitTimingOn).toBe(false);
    const step = Promise.resolve(42);
    // The very promise the step made: no wrapping, no clock.
    expect(timing.timedPhase('a statement', () => step)).toBe(step);
    expect(await timing.timedCommit(() => timing.timedPhase('a statement', () => step))).toBe(42);
    timing.addCommitPhase('a wait', 3);
    expect(timing.commitTimingSummary().phases).toEqual([]);
  });

  it('on, adds up each phase of a commit, counts the commit once, and ignores waits outside commits', async () => {
    const timing = await loadTiming(true);
    expect(timing.commitTimingOn).toBe(true);
    await timing.timedCommit(
      async () => {
        await timing.timedPhase('a statement', async () => 1);
        timing.addCommitPhase('a wait', 2);
        timing.addCommitPhase('a wait', 3);
        // A commit inside a timed one (the checkout thread times from the message's arrival) is the same record.
        await timing.timedCommit(async () => timing.addCommitPhase('a wait', 5));
      },
      { 'message to the checkout thread': 7 },
    );
    timing.addCommitPhase('a stray wait', 1);
    const { phases } = timing.commitTimingSummary();
    expect(phases.map((phase) => phase.phase).sort()).toEqual([
      'a statement',
      'a wait',
      'in transaction and pricing, total',
      'message to the checkout thread',
    ]);
    expect(phases.every((phase) => phase.count === 1)).toBe(true);
    expect(phases.find((phase) => phase.phase === 'a wait')).toMatchObject({ p50: 10, p99: 10, max: 10 });
    // Asked once, the summary forgets what it told.
    expect(timing.commitTimingSummary().phases).toEqual([]);
  });
});
