import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'ci-run-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/**
 * .ci/run in a copy of the project whose `node` and `npm` are stand-ins that succeed at once, so
 * what is checked is the script's own decisions, not the suites it runs.
 */
function runCi(
  env: Record<string, string>,
  options: { containerStep?: string } = {},
): { status: number | null; output: string } {
  const copy = join(work, `copy-${Math.random().toString(36).slice(2)}`);
  mkdirSync(copy);
  cpSync(join(root, '.ci'), join(copy, '.ci'), { recursive: true });
  // The container step builds an image with buildah: a stand-in says how it went.
  writeFileSync(join(copy, '.ci', 'container'), options.containerStep ?? 'echo image built and bought through\n');
  const bin = join(copy, 'bin');
  mkdirSync(bin);
  const standIn = (name: string, script: string) => {
    writeFileSync(join(bin, name), `#!/usr/bin/env bash\n${script}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  standIn('node', 'if [ "$1" = -v ]; then echo v24.0.0; else echo 24; fi');
  standIn('npm', 'if [ "$1" = -v ]; then echo 11.0.0; fi; exit 0');
  const result = spawnSync('bash', ['.ci/run'], {
    cwd: copy,
    env: {
      PATH: `${bin}:/usr/bin:/bin`,
      HOME: copy,
      PROMTOOL: '/bin/true',
      CHROMIUM_PATH: '/bin/true',
      ...env,
    },
    encoding: 'utf8',
  });
  return { status: result.status, output: result.stdout + result.stderr };
}

describe('.ci/run', () => {
  it('fails, saying so, when no PostgreSQL answers: the suites are never skipped on it', () => {
    const run = runCi({ CI_POSTGRES_PORT: '1', CI_POSTGRES_START: '0' });
    expect(run.output).toContain('test-postgres: FAILED');
    expect(run.status).not.toBe(0);
  });

  it('runs the suites on PostgreSQL when TEST_DATABASE_URL names one, and passes when every step does', () => {
    const run = runCi({ TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
    expect(run.output).toContain('== test-postgres: ok');
    expect(run.output).toContain('== all steps passed');
    expect(run.status).toBe(0);
  });
});

describe('.ci/run and the container image', () => {
  it('runs the container step, and fails, naming it, when the image does not work', () => {
    const passing = runCi({ TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' });
    expect(passing.output).toContain('== container: ok');
    const failing = runCi(
      { TEST_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test' },
      { containerStep: 'echo "container: FAILED: order 100001 did not survive the restart" >&2; exit 1\n' },
    );
    expect(failing.output).toContain('== FAILED: container');
    expect(failing.status).not.toBe(0);
  });
});

describe('.ci/postgres-url', () => {
  it('prints nothing and exits 1 when nothing answers on the port', () => {
    const result = spawnSync('bash', [join(root, '.ci/postgres-url')], {
      env: { PATH: '/usr/bin:/bin', CI_POSTGRES_PORT: '1', CI_POSTGRES_START: '0' },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('no PostgreSQL answers on 127.0.0.1:1');
  });
});
