import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

/**
 * Two projects. `fast` (`npm test`): the unit, API and security tests, in-process through
 * app.inject(). `slow` (`npm run test:slow`): the suites that run the shop as real processes or
 * generate thousands of cases (crashes, races, two instances, backups, start-up, fuzzing). CI runs
 * both, on SQLite and on PostgreSQL.
 */
const slowSuites = [
  'test/crash/**/*.test.ts',
  'test/races/**/*.test.ts',
  'test/scale-out/**/*.test.ts',
  'test/ops/**/*.test.ts',
  'test/fuzz/**/*.test.ts',
];

const shared = {
  setupFiles: ['test/setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 60_000,
};

export default defineConfig({
  plugins: [react()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          ...shared,
          name: 'fast',
          include: ['src/**/*.test.{ts,tsx}', 'test/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['test/e2e/**', 'node_modules/**', ...slowSuites],
        },
      },
      {
        extends: true,
        // Thousands of generated cases against PostgreSQL take tens of seconds on a busy 2-core
        // machine; the suites check what is answered, not how fast, so they get room.
        test: { ...shared, testTimeout: 120_000, name: 'slow', include: slowSuites, exclude: ['node_modules/**'] },
      },
    ],
  },
});
