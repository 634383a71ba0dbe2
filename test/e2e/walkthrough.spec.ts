import type { Locator, Page } from '@playwright/test';
import {
  deliveryDone,
  detailsDone,
  expect,
  expectNoAxeViolations,
  fillBasket,
  productWithSizes,
  saveAccountAddress,
  signUp,
  test,
} from './fixtures.ts';

/**
 * Defects found by a shopper's walk-through of every page, each checked on a desktop
 * and on a phone.
 */
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

for (const viewport of viewports) {
  test.describe(`on a ${viewport.name} (${viewport.width} px)`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('1. select boxes show the saved title and country after a reload', async ({ page }) => {
      test.slow();
      await signUp(page, `select.${viewport.name}.${Date.now()}@example.com`, 'MS');
      await page.goto('/account-home');
      await saveAccountAddress(page);
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
      await detailsDone(page);
      await page.goto('/checkout-details');
      await page.reload();
      await expect(page.getByLabel('Title').locator('option:checked')).toHaveText('MS');
      await expect(page.getByLabel('Country').locator('option:checked')).toHaveText('United Kingdom');
    });

    test('3. cancelling at PayPal and going HOME keeps the basket, and the order is reused', async ({ page }) => {
      test.slow();
      const product = await fillBasket(page, viewport.ownType);
      const stockId = product.stocks[0]!.id;
      await detailsDone(page);
      await deliveryDone(page);
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
      await detailsDone(page);
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
      await signUp(page, `sticky.${viewport.name}.${Date.now()}@example.com`, 'MS');
      await page.goto('/account-home');
      for (const name of ['Billing Address', 'Your Orders']) {
        await page.getByRole('navigation', { name: 'Account sections' }).getByRole('link', { name }).click();
        const heading = page.getByRole('heading', { level: 2, name });
        await expect.poll(async () => (await top(heading)) >= (await headerBottom(page))).toBe(true);
      }

      // The review page's FINAL SUMMARY stays below the header as the page scrolls.
      await fillBasket(page, 2016);
      await detailsDone(page);
      await deliveryDone(page);
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
  await detailsDone(page);
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
