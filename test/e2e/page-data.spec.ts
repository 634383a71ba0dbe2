import type { Page } from '@playwright/test';
import { expect, productWithSizes, test } from './fixtures.ts';

/**
 * The server writes the catalogue data a page draws first into its HTML (docs/rules.md#pages-and-routes):
 * a search page or a product page opened from an address shows its content without first asking
 * the API for it, and filtering afterwards still asks as before.
 */

/** The API calls the page makes, as "GET /api/brands". */
function apiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/')) calls.push(`${request.method()} ${url.pathname}`);
  });
  return calls;
}

test('a search opened from its address shows its results and filters without asking the API for them', async ({
  page,
}) => {
  const calls = apiCalls(page);
  await page.goto('/search?t=2010&s=price-asc');
  await expect(page.getByRole('heading', { name: /PRODUCTS FOUND$/ })).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-asc');
  const filters = page.getByRole('complementary', { name: 'Filters' });
  await expect(filters.getByRole('checkbox', { name: /^Dhols \(\d+\)$/ })).toBeChecked();
  await expect(page.locator('main a[href^="/products/"]').first()).toBeVisible();
  expect(calls.filter((call) => /\/api\/(search|product-types|brands)$/.test(call))).toEqual([]);

  // Filters change the search as before: the next answer comes from the API.
  const next = page.waitForResponse((response) => response.url().endsWith('/api/search'));
  await filters.getByRole('checkbox', { name: /^Dhols \(/ }).uncheck();
  expect((await next).ok()).toBe(true);
});

test('a product page opened from its address shows the product without asking the API for it', async ({ page }) => {
  const product = await productWithSizes(page);
  const calls = apiCalls(page);
  await page.goto(`/products/${product.urlKey}`);
  await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'ADD TO BASKET' })).toBeVisible();
  expect(calls.filter((call) => call.startsWith('GET /api/products/') && !call.match(/\/\d+\/\d+$/))).toEqual([]);
  expect(calls.filter((call) => /\/api\/(product-types|brands)$/.test(call))).toEqual([]);
});
