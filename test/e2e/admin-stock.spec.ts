import type { Page } from '@playwright/test';
import { apiPost, expect, expectNoAxeViolations, test } from './fixtures.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';

/**
 * Stock, vouchers and delivery in the back office (docs/back-office.md#stock-vouchers-and-delivery):
 * each change staff make shows in the storefront and at checkout next. The method and voucher are
 * this test's own, so tests running beside it see the shop as it was.
 */

/** A demo digital tanpura with a single size (no other browser test buys one). */
async function singleSizeProduct(page: Page) {
  const response = await apiPost(page, '/api/search', { typeId: [2021], pageSize: 100 });
  const { results } = (await response.json()) as {
    results: Array<{
      title: string;
      urlKey: string;
      stocks: Array<{ id: number; stock: number; productSizeName: string }>;
    }>;
  };
  const product = results.find((p) => p.stocks.length === 1 && p.stocks[0]!.stock >= 2);
  if (!product) throw new Error('the demo catalogue has no single-size digital tanpura in stock');
  return { ...product, stock: product.stocks[0]! };
}

test.describe('stock, vouchers and delivery in the back office', () => {
  // Signed out, the back office asks who is signed in (401).
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('staff adjust a size, make a voucher and change a delivery rate; the shop and its checkout follow', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = Date.now().toString(36).toUpperCase();
    const email = `stock.owner.${stamp}@example.com`.toLowerCase();
    const code = `E2E${stamp}`;
    const methodName = `Van courier ${stamp}`;
    await setPassword(page, createOwner(email));
    await signIn(page, email);

    const shopper = await browser.newContext();
    const shop = await shopper.newPage();
    const product = await singleSizeProduct(shop);

    // Stock: the size found by its title, all its units written off as damaged, then more received.
    await openFromNav(page, 'Stock');
    await page.getByRole('searchbox', { name: 'Search' }).fill(product.title);
    await page.getByRole('button', { name: 'Find sizes' }).click();
    const row = page.getByRole('row').filter({ hasText: product.title });
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('cell').nth(3)).toHaveText(String(product.stock.stock));
    await expectNoAxeViolations(page);
    const label = `${product.title}, ${product.stock.productSizeName}`;
    await page.getByLabel(`Change in units for ${label}`).fill(String(-product.stock.stock));
    await page.getByLabel(`Reason for ${label}`).selectOption('damaged');
    await page.getByRole('button', { name: `Apply to ${label}` }).click();
    await expect(row.getByRole('cell').nth(3)).toHaveText('0');
    await shop.goto(`/products/${product.urlKey}`);
    await expect(shop.getByText('Unavailable', { exact: true })).toBeVisible();

    await page.getByLabel(`Change in units for ${label}`).fill('4');
    await page.getByLabel(`Reason for ${label}`).selectOption('received');
    await page.getByRole('button', { name: `Apply to ${label}` }).click();
    await expect(row.getByRole('cell').nth(3)).toHaveText('4');
    await shop.reload();
    await expect(shop.getByText('In Stock', { exact: true })).toBeVisible();

    // Its history says who did what, when and why.
    await row.getByRole('link', { name: /History/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Stock: ${label}` })).toBeFocused();
    const history = page.getByRole('table', { name: 'Adjustments, newest first' });
    await expect(history.getByRole('row')).toHaveCount(3);
    await expect(history.getByRole('row').nth(1)).toContainText('+4');
    await expect(history.getByRole('row').nth(1)).toContainText('Received');
    await expect(history.getByRole('row').nth(2)).toContainText('Damaged');
    await expect(history.getByRole('row').nth(2)).toContainText(email);
    await expectNoAxeViolations(page);

    // A voucher: 15% off from £10, shoppers may type it in lower case.
    await openFromNav(page, 'Vouchers');
    await page.getByRole('link', { name: 'New voucher' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New voucher' })).toBeVisible();
    await page.getByLabel('Code').fill(code.toLowerCase());
    await page.getByLabel('Kind').selectOption('percent');
    await page.getByLabel('Percentage off').fill('15');
    await page.getByLabel('Minimum spend (£)').fill('10');
    await page.getByLabel('Last day').fill('2099-12-31');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Create voucher' }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Voucher ${code}` })).toBeVisible();
    await expect(page.getByText('Used 0 times')).toBeVisible();
    await expectNoAxeViolations(page);

    // Delivery: a method of our own for the UK, then its rate changed.
    await openFromNav(page, 'Delivery');
    await page.getByRole('button', { name: 'New delivery method' }).click();
    const form = page.getByRole('form', { name: 'New delivery method' });
    await form.getByLabel('Country').selectOption({ label: 'United Kingdom' });
    await form.getByLabel('Name').fill(methodName);
    await form.getByLabel('Rate (£)').fill('12.34');
    // Sent to the customer unless staff choose collection from the shop.
    await expect(form.getByLabel('Kind')).toHaveValue('delivery');
    await expectNoAxeViolations(page);
    await form.getByRole('button', { name: 'Save delivery method' }).click();
    const methodRow = page.getByRole('row').filter({ hasText: methodName });
    await expect(methodRow).toContainText('£12.34');
    await expect(methodRow.getByRole('cell', { name: 'Delivery', exact: true })).toBeVisible();
    await methodRow.getByRole('button', { name: `Edit ${methodName}` }).click();
    const edit = page.getByRole('form', { name: `Edit ${methodName}` });
    await edit.getByLabel('Rate (£)').fill('13.57');
    await edit.getByRole('button', { name: 'Save delivery method' }).click();
    await expect(methodRow).toContainText('£13.57');
    await expectNoAxeViolations(page);

    // The shopper checks out: the new rate, and the voucher.
    await shop.getByLabel('Quantity').fill('1');
    await shop.getByRole('button', { name: 'ADD TO BASKET' }).click();
    await expect(shop.getByText('Product added to Basket!')).toBeVisible();
    await shop.getByRole('link', { name: /Basket:/ }).click();
    await shop.getByRole('button', { name: 'PROCEED TO CHECKOUT' }).click();
    await shop.getByLabel('Title').selectOption({ label: 'MS' });
    await shop.getByLabel('Email').fill(`stock.shopper.${stamp}@example.com`);
    await shop.getByLabel('First Name').fill('Asha');
    await shop.getByLabel('Last Name').fill('Kaur');
    await shop.getByLabel('Contact Number').fill('0121 496 0000');
    await shop.getByLabel('Address Line 1').fill('12 Market Street');
    await shop.getByLabel('Post Code').fill('B70 7NJ');
    await shop.getByLabel('Town / City').fill('West Bromwich');
    await shop.getByLabel('Country').selectOption({ label: 'United Kingdom' });
    await shop.getByRole('button', { name: 'NEXT' }).click();
    await expect(shop).toHaveURL(/\/checkout-delivery$/);
    await shop.getByRole('button', { name: 'Continue' }).click();
    await shop.getByLabel('Same as Billing Address').check();
    await shop.getByRole('button', { name: 'Confirm Address' }).click();
    await expect(shop.getByLabel(new RegExp(methodName))).toBeVisible();
    await expect(shop.getByText('£13.57').first()).toBeVisible();
    await shop.getByLabel(new RegExp(methodName)).check();
    await expect(shop.getByRole('complementary').getByText('£13.57')).toBeVisible();
    await shop.getByRole('button', { name: 'Continue' }).click();
    await expect(shop).toHaveURL(/\/checkout-review$/);
    const voucher = shop.getByLabel('If you have a discount code please enter it below.');
    await voucher.fill(code.toLowerCase());
    await shop.getByRole('button', { name: 'Apply' }).click();
    await expect(shop.getByText('Voucher applied!')).toBeVisible();
    await expect(shop.getByText('Discount Code Applied:')).toContainText(code);
    await expect(shop.getByRole('complementary', { name: 'FINAL SUMMARY' }).getByText(/^-£/)).toBeVisible();
    await shopper.close();

    // Leave the shop's delivery as other tests expect it: our method no longer offered.
    await methodRow.getByRole('button', { name: `Edit ${methodName}` }).click();
    await page
      .getByRole('form', { name: `Edit ${methodName}` })
      .getByLabel('Offered at checkout')
      .uncheck();
    await page
      .getByRole('form', { name: `Edit ${methodName}` })
      .getByRole('button', { name: 'Save delivery method' })
      .click();
    await expect(methodRow.getByRole('cell').nth(3)).toHaveText('No');
  });
});
