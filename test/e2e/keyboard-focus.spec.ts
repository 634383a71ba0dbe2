import { detailsDone, expect, expectNoAxeViolations, fillBasket, productWithSizes, test } from './fixtures.ts';

/**
 * Where keyboard focus goes after an action takes away the control just used (issue 32, item 9):
 * to the next sensible control, never back to the page's start.
 */

test.describe('keyboard focus', () => {
  test("a product card's Add to cart, Cancel and Confirm each move focus to the next control", async ({ page }) => {
    const product = await productWithSizes(page, 2010, 2);
    await page.goto(`/search?k=${encodeURIComponent(product.title)}`);
    const card = page.getByRole('article', { name: product.title }).first();

    await card.getByRole('button', { name: 'Add to cart' }).press('Enter');
    await expect(card.getByLabel('Size / Style')).toBeFocused();
    await expectNoAxeViolations(page);
    await card.getByRole('button', { name: 'Cancel' }).press('Enter');
    await expect(card.getByRole('button', { name: 'Add to cart' })).toBeFocused();

    // A quantity the card refuses: focus goes to the box that needs changing.
    await card.getByRole('button', { name: 'Add to cart' }).press('Enter');
    await card.getByLabel('Quantity').fill('0');
    await card.getByRole('button', { name: 'Confirm' }).press('Enter');
    await expect(card.getByText('Quantity Required')).toBeVisible();
    await expect(card.getByLabel('Quantity')).toBeFocused();

    await card.getByLabel('Quantity').fill('1');
    await card.getByRole('button', { name: 'Confirm' }).press('Enter');
    await expect(card.getByRole('link', { name: 'VIEW CART' })).toBeFocused();
    await expectNoAxeViolations(page);
  });

  test('Confirm Address moves focus to the delivery options, and Edit to the first address field', async ({ page }) => {
    await fillBasket(page, 2016);
    await detailsDone(page);
    await page.getByLabel('Same as Billing Address').check();
    await expect(page.getByLabel(/Express delivery/)).toBeVisible();
    await page.getByRole('button', { name: 'Confirm Address' }).press('Enter');
    await expect(page.getByRole('radio').first()).toBeFocused();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Edit' }).press('Enter');
    await expect(page.getByLabel('Address Line 1')).toBeFocused();
  });
});
