import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

/** npm run fuzz [-- --runs 100000]: the fuzz suite (test/fuzz) with as many cases as asked. */
const { values } = parseArgs({ options: { runs: { type: 'string', default: '2000' } } });
const runs = Number(values.runs);
if (!Number.isInteger(runs) || runs < 1) {
  console.error('--runs must be a whole number above 0');
  process.exit(1);
}
const result = spawnSync('npx', ['vitest', 'run', 'test/fuzz', '--testTimeout', String(Math.max(30_000, runs * 50))], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: String(runs) },
});
process.exit(result.status ?? 1);
