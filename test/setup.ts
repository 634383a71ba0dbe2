import { afterEach, beforeEach, vi } from 'vitest';
import { CSRF_COOKIE } from '../src/contract/csrf.ts';

// A test fails on an unexpected console.error (CONVENTIONS.md, Tests).
const consoleError = vi.spyOn(console, 'error');
afterEach(() => {
  const calls = consoleError.mock.calls;
  consoleError.mockClear();
  if (calls.length > 0) throw new Error(`console.error was called: ${calls.map((c) => c.join(' ')).join('\n')}`);
});

// A page's tests in a DOM hold a CSRF token, as a shop page does once the API has set one, so their
// stand-in API answers only the calls the page makes itself (src/web/lib/api.test.ts asks for one).
beforeEach(() => {
  const page = (globalThis as { document?: { cookie: string } }).document;
  if (page) page.cookie = `${CSRF_COOKIE}=token-of-the-page; path=/`;
});
