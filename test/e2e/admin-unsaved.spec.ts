import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';

/**
 * Nothing lost by accident (issue 37): a half-written product is not thrown away by one click
 * elsewhere in the back office, nor by closing the tab, and a saved one goes to its page unasked.
 */
/** The new product's form, drawn with its types and brands: what is typed before then is drawn over. */
async function newProductFormReady(page: Page) {
  await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeFocused();
  await page.waitForLoadState('networkidle');
  await expect(
    page.getByLabel('Type', { exact: true }).getByRole('option', { name: 'Drums › Dholaks' }),
  ).toBeAttached();
}

test.describe('leaving a form with unsaved changes', () => {
  // Signed out, the back office asks who is signed in (401).
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('the back office asks before a half-written product is left, and the browser before the tab closes', async ({
    page,
  }) => {
    const stamp = `u${Date.now().toString(36)}`;
    const email = `unsaved.${stamp}@example.com`;
    await setPassword(page, createOwner(email));
    await signIn(page, email);

    // A form nothing was typed in is left at once.
    await openFromNav(page, 'Products');
    await page.getByRole('link', { name: 'Add a product' }).click();
    await openFromNav(page, 'Orders');

    await openFromNav(page, 'Products');
    await page.getByRole('link', { name: 'Add a product' }).click();
    await newProductFormReady(page);
    await page.getByLabel('Title', { exact: true }).fill(`Half-written dholak ${stamp}`);
    await page.getByRole('link', { name: 'Orders' }).click();
    const question = page.getByRole('alertdialog', { name: 'You have unsaved changes' });
    await expect(question).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stay on this page' })).toBeFocused();
    await expectNoAxeViolations(page);

    // Staying keeps what was typed; the back button asks too.
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(question).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible();
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`Half-written dholak ${stamp}`);
    await page.goBack();
    await expect(question).toBeVisible();
    await page.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(page.getByLabel('Title', { exact: true })).toHaveValue(`Half-written dholak ${stamp}`);

    // Closing the tab: the browser's own question.
    // Answered (leave), so the tab does close: a question left open kept the page, and the test's
    // end then failed to close the browser's context (seen once under load in CI).
    const closing = new Promise<string>((resolve) =>
      page.once('dialog', (dialog) => {
        resolve(dialog.type());
        void dialog.accept();
      }),
    );
    await page.close({ runBeforeUnload: true });
    expect(await closing).toBe('beforeunload');
  });

  test('a product saved goes to its own page without asking', async ({ page }) => {
    const stamp = `s${Date.now().toString(36)}`;
    const email = `saved.${stamp}@example.com`;
    await setPassword(page, createOwner(email));
    await signIn(page, email);
    await openFromNav(page, 'Products');
    await page.getByRole('link', { name: 'Add a product' }).click();
    await newProductFormReady(page);
    await page.getByLabel('Title', { exact: true }).fill(`Saved dholak ${stamp}`);
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Drums › Dholaks' });
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Punjab Dhol House' });
    await page.getByLabel('Description', { exact: true }).fill('A dholak for the test of leaving a saved form.');
    await page.getByLabel('Size 1: name').fill('Standard');
    await page.getByLabel('Size 1: price (£)').fill('59.00');
    await page.getByRole('button', { name: 'Add the product' }).click();
    await expect(page).toHaveURL(/\/admin\/products\/\d+$/);
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await openFromNav(page, 'Orders');
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
  });
});
