import type { Page, Response } from '@playwright/test';
import { apiPost, expect, expectNoAxeViolations, test } from './fixtures.ts';

/** Facet counts, the sort control and typo tolerance on the search page (docs/rules.md#catalogue-and-search). */

const found = (page: Page) => page.getByRole('heading', { name: /PRODUCTS FOUND$/ });
const count = async (page: Page) => Number((await found(page).innerText()).split(' ')[0]);
/** The number in a filter's name, "Dhols (12)". */
const countIn = async (page: Page, name: RegExp) => {
  const label = page.getByRole('complementary', { name: 'Filters' }).getByRole('checkbox', { name }).first();
  const accessibleName = (await label.evaluate((input) => input.closest('label')?.textContent)) ?? '';
  return Number(/\((\d+)\)\s*$/.exec(accessibleName)?.[1] ?? NaN);
};
const searchAnswer = (page: Page, sort: string) =>
  page.waitForResponse(
    (response: Response) =>
      response.url().endsWith('/api/search') &&
      (JSON.parse(response.request().postData() ?? '{}') as { sort?: string }).sort === sort,
  );

test('categories and brands show how many products match, and those with none are dimmed, not hidden', async ({
  page,
}) => {
  await page.goto('/search');
  await expect(found(page)).toBeVisible();
  const filters = page.getByRole('complementary', { name: 'Filters' });
  await expect(filters.getByRole('checkbox', { name: /^Drums \(\d+\)$/ })).toBeVisible();
  const drums = await countIn(page, /^Drums \(/);
  expect(drums).toBeGreaterThan(0);
  await filters.getByRole('checkbox', { name: /^Drums \(/ }).check();
  await expect.poll(() => count(page)).toBe(drums);

  // A keyword changes the counts; a brand that makes no sitar is still there, at 0.
  await page.goto('/search');
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await box.fill('sitar');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?k=sitar$/);
  await filters.getByRole('button', { name: 'Show String Instruments types' }).click();
  await expect(filters.getByRole('checkbox', { name: /^Sitars \([1-9]\d*\)$/ })).toBeVisible();
  const none = filters.getByRole('checkbox', { name: /^Punjab Dhol House \(0\)$/ });
  await expect(none).toBeVisible();
  await expect(none).toBeEnabled();
  const sitars = await countIn(page, /^Sitars \(/);
  await filters.getByRole('checkbox', { name: /^Sitars \(/ }).check();
  await expect.poll(() => count(page)).toBe(sitars);
  await expectNoAxeViolations(page);
});

test('the sort control orders by price and newest, and is kept in the address', async ({ page }) => {
  await page.goto('/search?t=1002');
  await expect(found(page)).toBeVisible();
  const sortBy = page.getByRole('combobox', { name: 'Sort by' });
  await expect(sortBy).toHaveValue('relevance');

  const cheapestFirst = searchAnswer(page, 'price-asc');
  await sortBy.selectOption({ label: 'Price: low to high' });
  const answer = (await (await cheapestFirst).json()) as { results: Array<{ stocks: Array<{ price: number }> }> };
  const lowest = answer.results.map((product) => Math.min(...product.stocks.map((stock) => stock.price)));
  expect(lowest.length).toBeGreaterThan(1);
  expect(lowest).toEqual([...lowest].sort((a, b) => a - b));
  await expect(page).toHaveURL(/\/search\?t=1002&s=price-asc$/);

  // Opened from the address, the page shows the results in that order (written into the page by the
  // server) and the order chosen.
  const dearest = (await (await apiPost(page, '/api/search', { typeId: [1002], sort: 'price-desc' })).json()) as {
    results: Array<{ title: string }>;
  };
  await page.goto('/search?t=1002&s=price-desc');
  await expect(page.getByRole('combobox', { name: 'Sort by' })).toHaveValue('price-desc');
  await expect(page.getByRole('article').first()).toContainText(dearest.results[0]?.title ?? 'none');
  await page.getByRole('combobox', { name: 'Sort by' }).selectOption({ label: 'Best match' });
  await expect(page).toHaveURL(/\/search\?t=1002$/);
});

test('a keyword with a letter missing or swapped still finds the product', async ({ page }) => {
  await page.goto('/search');
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await box.fill('harmonum');
  await box.press('Enter');
  await expect(page.getByRole('article').first()).toContainText(/Harmonium/i);
  await box.fill('tabal');
  await box.press('Enter');
  await expect(page.getByRole('article').first()).toContainText(/Tabla/i);
  expect(await count(page)).toBeGreaterThan(0);
});
