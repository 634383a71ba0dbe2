import { csrfTokenFor } from '../../src/server/http/csrf.ts';

/** The SESSION_SECRET the test apps and shop processes run with, so a test can sign tokens as the page gets them. */
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789-abcdef';

/**
 * The CSRF token the shop would have given a browser holding these cookies (its customer and staff
 * sessions, if any), as the shop's page would echo it.
 */
export function csrfTokenForCookies(
  cookieHeader: string | undefined,
  options: { secret?: string; secure?: boolean } = {},
): string {
  const cookies = new Map(
    (cookieHeader ?? '')
      .split(';')
      .map((part) => part.trim().split('='))
      .filter((pair): pair is [string, string] => pair.length >= 2 && pair[0] !== '')
      .map(([name, ...value]) => [name, value.join('=')]),
  );
  const names = options.secure ? ['__Host-sid', '__Host-admin'] : ['sid', 'admin'];
  return csrfTokenFor(
    options.secret ?? TEST_SESSION_SECRET,
    names.map((name) => cookies.get(name)),
  );
}
