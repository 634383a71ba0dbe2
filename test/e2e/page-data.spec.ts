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

test('a page gone to within the app asks the API for each answer it draws once', async ({ page }) => {
  // Its loader (src/contract/page-loaders.ts) and its hooks read through the same query cache.
  const catalogue = (calls: string[]) =>
    calls.filter((call) => /^(GET \/api\/products\/|POST \/api\/search$)/.test(call));
  await page.goto('/home');
  await page.waitForLoadState('networkidle');
  const calls = apiCalls(page);
  const dhols = page.getByRole('region', { name: 'PROFESSIONAL QUALITY DHOLS', exact: true });
  // The related products are asked for once the product has come: on a busy machine that can be
  // more than the half-second of quiet that "networkidle" waits for, so the test waits for them.
  const relatedAnswered = page.waitForResponse((response) =>
    /^\/api\/products\/\d+\/\d+$/.test(new URL(response.url()).pathname),
  );
  await dhols.locator('a[href^="/products/"]').first().click();
  await expect(page).toHaveURL(/\/products\/[^/]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await relatedAnswered;
  await page.waitForLoadState('networkidle');
  // The product, then its related products.
  expect(catalogue(calls)).toEqual([
    expect.stringMatching(/^GET \/api\/products\/[^/]+$/),
    expect.stringMatching(/^GET \/api\/products\/\d+\/\d+$/),
  ]);

  await page.goto('/home');
  await page.waitForLoadState('networkidle');
  const searchCalls = apiCalls(page);
  await page
    .getByRole('region', { name: 'PROFESSIONAL QUALITY DHOLS', exact: true })
    .getByRole('link', { name: /VIEW MORE/ })
    .click();
  await expect(page.getByRole('heading', { name: /PRODUCTS FOUND$/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(catalogue(searchCalls)).toEqual(['POST /api/search']);
});
