import { deliveryDone, detailsDone, expect, fillBasket, test } from './fixtures.ts';

/** Your Details as a shopper types into it (issue 32, item 9). */

test('a field over its length is named in its message, and a UK number written with brackets or +44 (0) is taken', async ({
  page,
}) => {
  await fillBasket(page);
  await page.goto('/checkout-details');
  const firstName = page.getByLabel('First Name');
  await firstName.fill('A'.repeat(51));
  await firstName.blur();
  await expect(page.getByText('First name: at most 50 characters', { exact: true })).toBeVisible();
  await expect(firstName).toHaveAccessibleDescription('First name: at most 50 characters');
  const phone = page.getByLabel('Contact Number');
  for (const typed of ['+44 (0)121 496 0000', '(0121) 496 0000', '0121-496-0000']) {
    await phone.fill(typed);
    await phone.blur();
    await expect(phone).not.toHaveAttribute('aria-invalid');
    await expect(page.getByText('Please provide your Contact Number')).toBeHidden();
  }
  await phone.fill('call me');
  await phone.blur();
  await expect(phone).toHaveAccessibleDescription('Please provide your Contact Number');
});
test('refreshing Your Details keeps what was typed', async ({ page }) => {
  await fillBasket(page);
  await page.goto('/checkout-details');
  await page.getByLabel('Title').selectOption({ label: 'MS' });
  await page.getByLabel('Email').fill('asha@example.com');
  await page.getByLabel('First Name').fill('Asha');
  await page.getByLabel('Contact Number').fill('(0121) 496 0000');
  await page.getByLabel('Address Line 1').fill('12 Market Street');
  await page.getByLabel('Post Code').fill('B70 7NJ');
  await page.reload();
  await expect(page.getByLabel('Title')).toHaveValue(/\d+/);
  await expect(page.getByLabel('Title').locator('option:checked')).toHaveText('MS');
  await expect(page.getByLabel('Email')).toHaveValue('asha@example.com');
  await expect(page.getByLabel('First Name')).toHaveValue('Asha');
  await expect(page.getByLabel('Last Name')).toHaveValue('');
  await expect(page.getByLabel('Contact Number')).toHaveValue('(0121) 496 0000');
  await expect(page.getByLabel('Address Line 1')).toHaveValue('12 Market Street');
  await expect(page.getByLabel('Post Code')).toHaveValue('B70 7NJ');
  // Nothing typed is a mistake yet: no message until the shopper moves on.
  await expect(page.locator('.field-error')).toHaveCount(0);
});

test('Review shows no discount line when no voucher applies', async ({ page }) => {
  await fillBasket(page);
  await detailsDone(page);
  await deliveryDone(page);
  const summary = page.getByRole('complementary', { name: 'FINAL SUMMARY' });
  await expect(summary.getByText('TOTAL')).toBeVisible();
  await expect(summary).not.toContainText('Discount');
  await expect(summary).not.toContainText('-£0.00');
});
