import type { Page, Request } from '@playwright/test';
import { apiPost, expect, fillBasket, linkFrom, signUp, test } from './fixtures.ts';

/**
 * The shopper's session lives in the httpOnly cookie alone (issue 31, item 10): a script injected
 * into the page can neither read it from storage nor see the page send it. The spec's `authToken`
 * storage key keeps only a mark that the shopper signed in, which the server has the last word on.
 */

/** The session cookie's value in the page's browser (`sid` outside production). */
async function sessionCookie(page: Page): Promise<string> {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'sid' || c.name === '__Host-sid');
  expect(cookie, 'the session cookie').toBeDefined();
  expect(cookie?.httpOnly).toBe(true);
  return cookie?.value ?? '';
}

/** Everything the page keeps in localStorage and sessionStorage, as one string per entry. */
async function pageStorage(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [localStorage, sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => `${key}=${storage.getItem(key) ?? ''}`),
    ),
  );
}

test('after sign-in no session token is in the page storage or in any request, and the shopper stays signed in', async ({
  page,
}) => {
  // Registration, activation and sign-in, then three pages: long on a busy machine.
  test.slow();
  const sent: Request[] = [];
  page.on('request', (request) => void sent.push(request));
  // The sign-in answer the page reads, taken as it arrives (the browser forgets it on the next page).
  const signInAnswers: Array<Promise<string>> = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/sign-in') signInAnswers.push(response.text());
  });
  const email = `cookie.${Date.now()}@example.com`;
  await signUp(page, email);
  const topBar = page.getByRole('navigation', { name: 'Contact and account' });
  await expect(topBar.getByRole('link', { name: 'ARJUN mehta' })).toBeVisible();
  await page.goto('/account-home');
  await expect(page.getByRole('heading', { name: 'My Account' })).toBeVisible();
  await expect(page.getByText('Hello Arjun, welcome back.')).toBeVisible();
  await page.reload();
  await expect(topBar.getByRole('link', { name: 'ARJUN mehta' })).toBeVisible();
  await expect(page.getByText('Hello Arjun, welcome back.')).toBeVisible();

  const token = await sessionCookie(page);
  expect(token.length).toBeGreaterThanOrEqual(20);
  const storage = await pageStorage(page);
  // The spec's key is still there, holding a mark only.
  expect(storage.some((entry) => entry.startsWith('authToken='))).toBe(true);
  for (const entry of storage) expect(entry).not.toContain(token);

  const withAuthorization = [];
  for (const request of sent) {
    if ((await request.allHeaders()).authorization !== undefined) withAuthorization.push(request.url());
  }
  expect(withAuthorization).toEqual([]);
  // The sign-in answer the page read did not carry the token either.
  expect(signInAnswers).toHaveLength(1);
  expect(await signInAnswers[0]).not.toContain(token);
});

test.describe('a session ended elsewhere', () => {
  // The ended session's who-am-i is answered 401, which the browser reports.
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('is not taken for a signed-in shopper at checkout: the sign-in step and "Already registered?" show', async ({
    page,
    browser,
  }) => {
    test.slow();
    const email = `ended.${Date.now()}@example.com`;
    await signUp(page, email);
    await fillBasket(page);

    // The password is reset from another browser, which ends every session of the account.
    const elsewhere = await browser.newContext();
    const other = await elsewhere.newPage();
    await other.goto('/forgotpassword');
    expect((await apiPost(other, '/api/forgot-password', { email })).ok()).toBe(true);
    const token = (await linkFrom(other, email, 'reset-password')).split('/').at(-1);
    const password = 'Sarangi-Bow-Resin-2028';
    const reset = await apiPost(other, '/api/reset-password', { token, password, confirm: password });
    expect(await reset.json()).toMatchObject({ ok: true });
    await elsewhere.close();

    await page.goto('/checkout');
    await expect(page.getByRole('heading', { name: 'Returning Customer' })).toBeVisible();
    await expect(page).toHaveURL(/\/checkout$/);
    await expect(
      page.getByRole('navigation', { name: 'Contact and account' }).getByRole('link', { name: 'Login' }),
    ).toBeVisible();
    await page.goto('/checkout-details');
    await expect(page.getByText('Already registered?')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in to use your saved details' })).toBeVisible();
  });
});
