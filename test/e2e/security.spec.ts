import { openDatabase } from '../../src/server/db/database.ts';
import { catalogFactory } from '../helpers/catalog-factory.ts';
import { apiPost, expect, productWithSizes, test } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';

/**
 * Markup a shopper (or an attacker) types comes back as text. Reflected through the search keyword
 * in the address bar, stored in a product's title and description (as a careless import might), and
 * stored in an order's names and address, then shown on its recovery page. Nothing runs, and no
 * element is made from it (docs/rules.md#security).
 */
const payload = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;

async function nothingRan(page: import('@playwright/test').Page) {
  expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('main script')).toHaveCount(0);
}

test('a search keyword with markup in the address is shown as text', async ({ page }) => {
  await page.goto(`/search?k=${encodeURIComponent(payload)}`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('searchbox').first()).toHaveValue(payload);
  await nothingRan(page);
});

test('names and an address with markup are shown as text on the order recovery page', async ({ page }) => {
  const product = await productWithSizes(page);
  const address = { line1: payload.slice(0, 100), postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 };
  const response = await apiPost(page, '/api/basket', {
    items: [{ productStockId: product.stocks[0]!.id, requestedQty: 1 }],
    guest: {
      titleId: 2,
      firstname: '<b>Ravi</b>',
      lastname: '<img src=x>',
      email: 'markup@example.com',
      contactNumber: '0121 496 0001',
    },
    billingAddress: address,
    deliveryAddress: address,
    deliveryMethodRateId: 3,
  });
  const order = (await response.json()) as { ok: boolean; orderCode: string };
  expect(order.ok).toBe(true);
  await page.goto(`/order-recovery/${order.orderCode}`);
  await expect(page.getByText('<B>RAVI</B> <IMG SRC=X>')).toBeVisible();
  await expect(page.getByText(payload.slice(0, 100), { exact: false }).first()).toBeVisible();
  await nothingRan(page);
});

test('a product whose title and description hold markup shows them as text', async ({ page }) => {
  const db = openDatabase(`sqlite:${databaseFor(Number(process.env.E2E_PORT ?? 3555))}`);
  try {
    const make = catalogFactory(db);
    const product = await make.product({
      typeId: 2010,
      brandId: 1,
      title: 'Dhol <img src=x onerror="window.__xss=3">',
      urlKey: `markup-dhol-${Date.now()}`,
      description: `Loud and bright.\n${payload}`,
      stocks: [{ price: 9900, stock: 4 }],
    });
    await page.goto(`/products/${product.urlKey}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dhol <img src=x onerror="window.__xss=3">');
    await expect(page.getByText(payload)).toBeVisible();
    await nothingRan(page);
  } finally {
    await db.destroy();
  }
});
