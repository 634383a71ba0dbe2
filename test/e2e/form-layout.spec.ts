import type { Locator, Page } from '@playwright/test';
import { expect, fillBasket, signUp, test } from './fixtures.ts';

/** Cosmetics from issue 32, item 10, measured at a laptop's width and a phone's. */
const widths = [1366, 390];

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not on the page');
  return found;
}

async function heights(page: Page, labels: string[]) {
  return Promise.all(
    labels.map(async (label) => Math.round((await box(page.getByLabel(label, { exact: true }))).height)),
  );
}

for (const width of widths) {
  test(`at ${width} px an input keeps its height when a neighbour's message shows`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await fillBasket(page);
    await page.goto('/checkout-details');
    const labels = ['Email', 'First Name', 'Last Name', 'Contact Number', 'Address Line 1', 'Address Line 2'];
    const before = await heights(page, labels);
    // A long name's message under First Name, and none under Last Name beside it.
    await page.getByLabel('First Name').fill('A'.repeat(51));
    await page.getByLabel('Last Name').fill('Kaur');
    await page.getByLabel('Address Line 1').fill('');
    await page.getByLabel('Address Line 2').focus();
    await page.getByLabel('Address Line 2').blur();
    await expect(page.getByText('First name: at most 50 characters')).toBeVisible();
    await expect(page.getByText('Please provide your Address Line 1')).toBeVisible();
    expect(await heights(page, labels)).toEqual(before);
  });

  test(`at ${width} px the cart's quantity box stays where it is when a line's total changes or is refused`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await fillBasket(page);
    await page.goto('/shoppingcart');
    const quantity = page.getByLabel('Quantity');
    const at = async () => {
      const { x, width: w } = await box(quantity);
      return { x: Math.round(x), width: Math.round(w) };
    };
    await expect(page.getByText('Line total:')).toBeAttached();
    const before = await at();
    // More than there is: the server refuses the line, whose total gives way to a longer text.
    await page.evaluate(() => {
      const basket = JSON.parse(localStorage.getItem('temporaryBasket') ?? '{}');
      basket.items[0].requestedQty = 9999;
      localStorage.setItem('temporaryBasket', JSON.stringify(basket));
    });
    await page.reload();
    await expect(page.getByText('Not included in the total')).toBeVisible();
    expect(await at()).toEqual(before);
    await quantity.fill('1');
    await page.getByRole('button', { name: 'UPDATE BASKET' }).click();
    await expect(page.getByText('Not included in the total')).toBeHidden();
    expect(await at()).toEqual(before);
  });

  test(`at ${width} px My Account's Change Password button stands clear of the next heading`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signUp(page, `spacing-${width}-${Date.now()}@example.com`);
    await page.goto('/account-home');
    const button = await box(page.getByRole('button', { name: 'Change Password' }));
    const heading = await box(page.getByRole('heading', { name: 'Your Orders' }));
    expect(heading.y - (button.y + button.height)).toBeGreaterThanOrEqual(24);
    const save = await box(page.getByRole('button', { name: 'Save Changes' }));
    const security = await box(page.getByRole('heading', { name: 'Security' }));
    expect(security.y - (save.y + save.height)).toBeGreaterThanOrEqual(24);
  });
}
