import type { Page } from '@playwright/test';
import { expect, productWithSizes, test } from './fixtures.ts';

/**
 * The pages keep to their own Content-Security-Policy (security-headers.ts): no script of the shop
 * tries what the policy forbids, eval included. A refused try that the code catches logs nothing to
 * the console, yet the browser reports it (Lighthouse's best practices lose points for it), so the
 * test listens for the page's securitypolicyviolation events themselves.
 */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} (${event.blockedURI}) at ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

test('the storefront asks for nothing its policy forbids', async ({ page }) => {
  const violations = await watchViolations(page);
  const product = await productWithSizes(page);
  for (const path of ['/', '/search?t=2010', `/products/${product.urlKey}`]) {
    await page.goto(path);
    await expect(page.getByRole('main')).toBeVisible();
    expect(await violations(), path).toEqual([]);
  }
});

test.describe('the back office', () => {
  // Signed out, its first call for who is signed in is answered 401.
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('asks for nothing its policy forbids', async ({ page }) => {
    const violations = await watchViolations(page);
    await page.goto('/admin');
    // A form checked by its schema before anything is sent.
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText(/e-mail address/i).first()).toBeVisible();
    expect(await violations()).toEqual([]);
  });
});
