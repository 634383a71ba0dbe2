import { messages } from '../../src/contract/messages.ts';
import { CUSTOMER_PASSWORD, expect, expectNoAxeViolations, fillBasket, linkFrom, register, test } from './fixtures.ts';

/** An account not yet activated is told so, after the right password only. */
test.describe('signing in to an account not yet activated', () => {
  // The refusals are answered 401 and 403, and the spent activation link 400, which the browser reports.
  test.use({ allowConsoleErrors: [/status of (400|401|403|429)/] });

  for (const where of ['/login', '/checkout'] as const) {
    test(`on ${where}: says so, offers a new link, and the new link activates it`, async ({ page }) => {
      const email = `unactivated.${where.slice(1)}.${Date.now()}@example.com`;
      await register(page, email);
      const firstLink = await linkFrom(page, email, 'verify-account');
      if (where === '/checkout') await fillBasket(page);
      await page.goto(where);
      const form = page.getByRole('form', { name: where === '/login' ? 'Login' : 'Sign in' });
      await form.getByLabel('Email').fill(email);
      await form.getByLabel('Password').fill('Wrong-password-99');
      await form.getByRole('button', { name: 'LOG IN' }).click();
      // A wrong password is answered as for any address.
      await expect(form.getByRole('alert')).toHaveText(messages.login.failed);
      await expect(form.getByRole('button', { name: messages.login.resend })).toHaveCount(0);

      await form.getByLabel('Password').fill(CUSTOMER_PASSWORD);
      await form.getByRole('button', { name: 'LOG IN' }).click();
      await expect(form.getByRole('alert')).toContainText(messages.login.notActivated);
      await expectNoAxeViolations(page);
      await form.getByRole('button', { name: messages.login.resend }).click();
      await expect(form.getByRole('status')).toHaveText(messages.login.resent);
      await expect.poll(() => linkFrom(page, email, 'verify-account')).not.toBe(firstLink);
      const secondLink = await linkFrom(page, email, 'verify-account');
      await page.goto(firstLink);
      // The spent link is refused and the page sends the shopper home; waiting for that keeps the
      // refusal from arriving while the next page loads.
      await expect(page).toHaveURL(/\/home$/);
      await expect(page.getByRole('heading', { name: 'Account Activated' })).toHaveCount(0);
      await page.goto(secondLink);
      await expect(page.getByRole('heading', { name: 'Account Activated' })).toBeVisible();
    });

    test(`on ${where}: a sign-in refused by the rate limit says when to try again`, async ({ page }) => {
      if (where === '/checkout') await fillBasket(page);
      await page.route('**/api/sign-in', (route) =>
        route.fulfill({
          status: 429,
          headers: { 'retry-after': '42', 'content-type': 'application/json' },
          body: JSON.stringify({ error: { code: 'TOO_MANY_REQUESTS', message: 'Too many requests' } }),
        }),
      );
      await page.goto(where);
      const form = page.getByRole('form', { name: where === '/login' ? 'Login' : 'Sign in' });
      await form.getByLabel('Email').fill('someone@example.com');
      await form.getByLabel('Password').fill(CUSTOMER_PASSWORD);
      await form.getByRole('button', { name: 'LOG IN' }).click();
      await expect(form.getByRole('alert')).toHaveText(
        'Too many attempts from your connection. Please try again in 42 seconds.',
      );
    });
  }
});
