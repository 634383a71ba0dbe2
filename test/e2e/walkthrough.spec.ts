import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectNoAxeViolations,
  fillBasket,
  fillDetails,
  linkFrom,
  productWithSizes,
  test,
} from './fixtures.ts';

/**
 * Defects found by a shopper's walk-through of every page (issue 16), each checked on a desktop
 * and on a phone.
 */
const PASSWORD = 'Sarangi-Evening-2026';

/** `ownType`: a product type no other test buys, so a test can count its stock. */
const viewports = [
  { name: 'desktop', width: 1366, height: 900, ownType: 2021 },
  { name: 'phone', width: 390, height: 844, ownType: 2008 },
] as const;

async function headerBottom(page: Page): Promise<number> {
  return page
    .locator('header')
    .first()
    .evaluate((header) => header.getBoundingClientRect().bottom);
}

async function top(locator: Locator): Promise<number> {
  return locator.evaluate((element) => element.getBoundingClientRect().top);
}

async function registerAndSignIn(page: Page, email: string) {
  await page.goto('/register');
  await page.getByLabel('Title').selectOption({ label: 'MS' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First Name').fill('Meera');
  await page.getByLabel('Last Name').fill('Iyer');
  await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
  await page.getByLabel('Confirm Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'REGISTER' }).click();
  await expect(page.getByRole('heading', { name: 'Registration complete' })).toBeVisible();
  await page.goto(await linkFrom(page, email, 'verify-account'));
  await expect(page.getByRole('heading', { name: 'Account Activated' })).toBeVisible();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'LOG IN' }).click();
  await expect(page.getByText('You are signed in.')).toBeVisible();
}

for (const viewport of viewports) {
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('1. select boxes show the saved title and country after a reload', async ({ page }) => {
      test.slow();
      await registerAndSignIn(page, `select.${viewport.name}.${Date.now()}@example.com`);
      await page.goto('/account-home');
      const billing = page.getByRole('region', { name: 'Billing Address' });
      await billing.getByLabel('Address Line 1').fill('3 Bandstand Row');
      await billing.getByLabel('Address Line 2').fill('Soho Road');
      await billing.getByLabel('Post Code').fill('B21 9RY');
      await billing.getByLabel('Town / City').fill('Birmingham');
      await billing.getByLabel('Country').selectOption({ label: 'United Kingdom' });
      await page.getByLabel('Contact Number').fill('0121 496 0300');
      await page.getByLabel('Use Billing Address').check();
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect(page.getByRole('dialog').getByText('Your details have been saved.')).toBeVisible();
      await page.reload();
      await expect(page.getByLabel('Title').locator('option:checked')).toHaveText('MS');
      for (const region of ['Billing Address', 'Delivery Address']) {
        await expect(
          page.getByRole('region', { name: region }).getByLabel('Country').locator('option:checked'),
        ).toHaveText('United Kingdom');
      }

      // Checkout's Your Details as a guest, filled in, then opened again with a reload.
      await page.context().clearCookies();
      await page.evaluate(() => localStorage.clear());
      await fillBasket(page, 2016);
      await page.goto('/checkout-details');
      await fillDetails(page);
      await page.getByRole('button', { name: 'NEXT' }).click();
      await expect(page).toHaveURL(/\/checkout-delivery$/);
      await page.goto('/checkout-details');
      await page.reload();
      await expect(page.getByLabel('Title').locator('option:checked')).toHaveText('MS');
      await expect(page.getByLabel('Country').locator('option:checked')).toHaveText('United Kingdom');
    });

    test('3. cancelling at PayPal and going HOME keeps the basket, and the order is reused', async ({ page }) => {
      test.slow();
      const product = await fillBasket(page, viewport.ownType);
      const stockId = product.stocks[0]!.id;
      await page.goto('/checkout-details');
      await fillDetails(page);
      await page.getByRole('button', { name: 'NEXT' }).click();
      await page.getByLabel('Same as Billing Address').check();
      await page.getByRole('button', { name: 'Confirm Address' }).click();
      await page.getByLabel(/Express delivery/).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/checkout-review$/);
      await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
      await page.getByRole('link', { name: 'Cancel and return to the shop' }).click();
      await expect(page).toHaveURL(/\/payment-declined$/);

      // Not BACK TO BASKET: the shopper goes HOME, and the basket is there.
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'HOME' }).click();
      await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
      await page.getByRole('link', { name: /Basket:/ }).click();
      await expect(page.getByRole('heading', { level: 2, name: product.title })).toBeVisible();

      // Paying again replaces the cancelled order: the stock is reserved once, not twice.
      await page.getByRole('button', { name: 'PROCEED TO CHECKOUT' }).click();
      await page.goto('/checkout-review');
      await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
      const after = (await (await page.request.get(`/api/products/${product.urlKey}`)).json()) as {
        stocks: Array<{ id: number; stock: number }>;
      };
      expect(after.stocks.find((s) => s.id === stockId)?.stock).toBe(product.stocks[0]!.stock - 2);
    });

    test('4. a checkout step opened directly sends the shopper to the first incomplete one', async ({ page }) => {
      await fillBasket(page, 2016);
      for (const path of ['/checkout-delivery', '/checkout-review']) {
        await page.goto(path);
        await expect(page).toHaveURL(/\/checkout-details$/);
      }
      await fillDetails(page);
      await page.getByRole('button', { name: 'NEXT' }).click();
      await expect(page).toHaveURL(/\/checkout-delivery$/);
      await page.goto('/checkout-review');
      await expect(page).toHaveURL(/\/checkout-delivery$/);
    });

    test('6. the header keeps its height when the basket reaches £1,000', async ({ page }) => {
      const product = await productWithSizes(page, 2017, 1);
      const stock = product.stocks[0]!;
      await page.goto('/home');
      await expect(page.getByTestId('cart-total')).toHaveText('£0.00');
      const emptyHeight = await page
        .locator('header')
        .first()
        .evaluate((h) => h.getBoundingClientRect().height);
      const quantity = Math.ceil(1_000_00 / stock.price) * 10;
      await page.evaluate(
        ([id, qty]) =>
          localStorage.setItem(
            'temporaryBasket',
            JSON.stringify({ items: [{ productStockId: id, requestedQty: qty }] }),
          ),
        [stock.id, quantity],
      );
      await page.reload();
      await expect(page.getByTestId('cart-total')).toHaveText(/^£\d{2,},\d{3}\.\d{2}$/);
      const fullHeight = await page
        .locator('header')
        .first()
        .evaluate((h) => h.getBoundingClientRect().height);
      expect(fullHeight).toBe(emptyHeight);
    });

    test('10. nothing is hidden under the sticky header', async ({ page }) => {
      test.slow();
      await registerAndSignIn(page, `sticky.${viewport.name}.${Date.now()}@example.com`);
      await page.goto('/account-home');
      for (const name of ['Billing Address', 'Your Orders']) {
        await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name }).click();
        const heading = page.getByRole('heading', { level: 2, name });
        await expect.poll(async () => (await top(heading)) >= (await headerBottom(page))).toBe(true);
      }

      // The review page's FINAL SUMMARY stays below the header as the page scrolls.
      await fillBasket(page, 2016);
      await page.goto('/checkout-details');
      await fillDetails(page);
      await page.getByRole('button', { name: 'NEXT' }).click();
      await page.getByLabel('Same as Billing Address').check();
      await page.getByRole('button', { name: 'Confirm Address' }).click();
      await page.getByLabel(/Express delivery/).check();
      await page.getByRole('button', { name: 'Continue' }).click();
      await expect(page).toHaveURL(/\/checkout-review$/);
      const summary = page.getByRole('complementary', { name: 'FINAL SUMMARY' });
      await expect(summary).toBeVisible();
      await summary.evaluate((aside) => window.scrollBy(0, aside.parentElement!.getBoundingClientRect().top - 5));
      await expect.poll(async () => (await top(summary)) >= (await headerBottom(page))).toBe(true);
      await expectNoAxeViolations(page);
    });
  });
}

test('9. unticking "Same as Billing Address" clears the country too', async ({ page }) => {
  await fillBasket(page, 2016);
  await page.goto('/checkout-details');
  await fillDetails(page);
  await page.getByRole('button', { name: 'NEXT' }).click();
  const same = page.getByLabel('Same as Billing Address');
  await same.check();
  await expect(page.getByLabel('Country').locator('option:checked')).toHaveText('United Kingdom');
  await same.uncheck();
  await expect(page.getByLabel('Address Line 1')).toHaveValue('');
  await expect(page.getByLabel('Country').locator('option:checked')).toHaveText('Select a country');
});

test('11. a page has one meta description, its own where it has one', async ({ page }) => {
  const product = await productWithSizes(page, 2016, 1);
  for (const path of ['/home', '/search', `/products/${product.urlKey}`, '/contact']) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    await expect(page.locator('meta[name="description"]')).toHaveCount(1);
  }
  await page.goto('/home');
  await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', /hand-made by artisans/);
});

test('14. Your Details offers a signed-out customer to sign in', async ({ page }) => {
  await fillBasket(page, 2016);
  await page.goto('/checkout-details');
  await page.getByRole('link', { name: 'Sign in to use your saved details' }).click();
  await expect(page).toHaveURL(/\/checkout$/);
  await expect(page.getByLabel('Password')).toBeVisible();
});
