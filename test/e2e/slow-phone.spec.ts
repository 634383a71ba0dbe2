import type { Page } from '@playwright/test';
import { expect, productWithSizes, test } from './fixtures.ts';

/**
 * A phone on a slow connection (issue 32): the page the server drew is on screen seconds before the
 * shop's code has arrived. A tap on one of its buttons in that time is kept and answered once the
 * code has started, not lost. The code is held back here (not slowed), so the tap always lands first.
 */

/** Holds every script of the app until `release` is called; /boot.js itself still arrives. */
async function holdTheAppsCode(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/[^?]+\.js(\?.*)?$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** Opens `path` without waiting for the page to start (the browser tests' goto waits for it). */
async function openDrawnPage(page: Page, path: string): Promise<void> {
  await page.goto('/robots.txt');
  await page.evaluate((to) => {
    window.location.href = to;
  }, path);
  await page.waitForURL(`**${path}`, { waitUntil: 'domcontentloaded' });
}

test('a tap on ADD TO BASKET before the code has arrived is answered once it has, once', async ({ page }) => {
  const product = await productWithSizes(page);
  const release = await holdTheAppsCode(page);
  await openDrawnPage(page, `/products/${product.urlKey}`);
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
  const add = page.getByRole('button', { name: 'ADD TO BASKET' });
  // Tapped twice, as a shopper does when nothing seems to happen: the basket gets it once.
  await add.click();
  await add.click();
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
  release();
  await expect(page.getByText('Product added to Basket!')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1 Items');
});

test("a tap on a card's Add to cart before the code has arrived opens its choice once the code has", async ({
  page,
}) => {
  const product = await productWithSizes(page);
  const release = await holdTheAppsCode(page);
  await openDrawnPage(page, `/search?k=${encodeURIComponent(product.title)}`);
  const card = page.getByRole('article', { name: product.title });
  await card.getByRole('button', { name: 'Add to cart' }).click();
  release();
  await expect(card.getByLabel('Size / Style')).toBeVisible();
});
