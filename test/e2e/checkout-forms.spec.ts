import { expect, fillBasket, test } from './fixtures.ts';

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
