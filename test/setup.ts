import { afterEach, vi } from 'vitest';

// A test fails on an unexpected console.error (CONVENTIONS.md, Tests).
const consoleError = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockClear();
  if (calls.length > 0) throw new Error(`console.error was called: ${calls.map((c) => c.join(' ')).join('\n')}`);
});
