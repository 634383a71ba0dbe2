import type { Page } from '@playwright/test';
import { expect, productWithSizes, test } from './fixtures.ts';

/**
 * One description per page, in the browser as in the HTML the server sends (issue 31, item 13):
 * search engines that run scripts read the page after the app has drawn it.
 */
const descriptions = (page: Page) =>
  page.locator('head meta[name="description"]').evaluateAll((tags) => tags.map((tag) => tag.getAttribute('content')));

test('pages have one description each, their own or the shop’s, also after moving between them', async ({ page }) => {
  const product = await productWithSizes(page);
  await page.goto('/home');
  const [home] = await descriptions(page);
  expect(await descriptions(page)).toHaveLength(1);
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', /^http:\/\/localhost:\d+\/$/);

  // Drawn by the app, without the server: About has no description of its own, so the shop's.
  await page.getByRole('link', { name: 'About Us', exact: true }).first().click();
  await expect(page).toHaveURL(/\/about$/);
  await expect(page).toHaveTitle(/^About Us/);
  const about = await descriptions(page);
  expect(about).toHaveLength(1);
  expect(about[0]).toBeTruthy();
  expect(about[0]).not.toBe(home);

  for (const path of [`/products/${product.urlKey}`, '/termsandconditions', '/about']) {
    await page.goto(path);
    expect(await descriptions(page), path).toHaveLength(1);
  }
});

test('the site root shows the home page at /home, its canonical address the root', async ({ page }) => {
  const answer = await page.goto('/');
  expect(answer?.status()).toBe(200);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('heading', { name: /^Welcome to / })).toBeAttached();
  await expect(page.locator('head link[rel="canonical"]')).toHaveAttribute('href', /^http:\/\/localhost:\d+\/$/);
});
