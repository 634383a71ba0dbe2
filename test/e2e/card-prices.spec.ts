import type { Page } from '@playwright/test';
import { openDatabase } from '../../src/server/db/database.ts';
import { catalogFactory, type StockInput } from '../helpers/catalog-factory.ts';
import { apiPost, expect, expectNoAxeViolations, test } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';

/**
 * A card advertises a price a shopper can buy (issue 32, item 3): its cheapest size in stock, "from"
 * when the sizes in stock differ in price; once a size is added, the card shows that size's price;
 * and a product with every size sold out offers nothing to add, on its card or on its page. Each
 * test adds a product of its own to the browser tests' database, so no other test's shopping moves it.
 */

const port = Number(process.env.E2E_PORT ?? 3555);

async function addProduct(title: string, stocks: StockInput[]) {
  const db = openDatabase(`sqlite:${databaseFor(port)}`);
  try {
    // A demo type and brand: the product sits among the shop's own, as staff would add it.
    return await catalogFactory(db).product({ typeId: 2010, brandId: 1, title, stocks });
  } finally {
    await db.destroy();
  }
}

/** The search page for the product's own title, once the shop's search index has it. */
async function searchFor(page: Page, title: string) {
  await expect
    .poll(async () => {
      const answer = await apiPost(page, '/api/search', { title });
      return ((await answer.json()) as { results: Array<{ title: string }> }).results.map((p) => p.title);
    })
    .toContain(title);
  await page.goto(`/search?k=${encodeURIComponent(title)}`);
  return page.getByRole('article', { name: title });
}

test('a card whose cheapest size is sold out shows the cheapest in stock, and after adding, what was added', async ({
  page,
}) => {
  const title = `Kesari Dhol ${Date.now().toString(36)}`;
  const product = await addProduct(title, [
    { sizeName: 'Junior 18 inch', price: 48999, stock: 0 },
    { sizeName: 'Standard 24 inch', price: 59299, stock: 3 },
    { sizeName: 'Professional 26 inch', price: 69999, stock: 2 },
  ]);
  const card = await searchFor(page, title);
  await expect(card).toContainText('from £592.99');
  await expect(card).not.toContainText('£489.99');
  await expectNoAxeViolations(page);

  await card.getByRole('button', { name: 'Add to cart' }).click();
  await card.getByLabel('Size / Style').selectOption(String(product.stockIds[2]));
  await expect(card).toContainText('£699.99');
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByRole('status')).toContainText('Added to Basket');
  // What was added, not the card's "from" price.
  await expect(card).toContainText('£699.99');
  await expect(card).not.toContainText('£592.99');
  await expect(card).not.toContainText('£489.99');
  await expect(page.getByTestId('cart-total')).toHaveText('£699.99');
  await expectNoAxeViolations(page);

  // The product page opens on the first size in stock, the price the card starts from.
  await card.getByRole('link', { name: title }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('£592.99');
  await expect(page.getByText('In Stock', { exact: true })).toBeVisible();
});

test('a card whose sizes in stock cost the same shows that price without "from"', async ({ page }) => {
  const title = `Sheesham Dholak ${Date.now().toString(36)}`;
  await addProduct(title, [
    { sizeName: 'Small', price: 9999, stock: 0 },
    { sizeName: 'Medium', price: 14999, stock: 4 },
    { sizeName: 'Medium, rope-tuned', price: 14999, stock: 1 },
  ]);
  const card = await searchFor(page, title);
  await expect(card).toContainText('£149.99');
  await expect(card).not.toContainText('from');
  await expect(card).not.toContainText('£99.99');
});

test('a product with every size sold out offers nothing to add, on its card or its page', async ({ page }) => {
  const title = `Brass Khartal ${Date.now().toString(36)}`;
  const product = await addProduct(title, [
    { sizeName: 'Pair', price: 2499, stock: 0 },
    { sizeName: 'Two pairs', price: 4499, stock: 0 },
  ]);
  const card = await searchFor(page, title);
  await expect(card.getByText('Sold out', { exact: true })).toBeVisible();
  await expect(card.getByRole('button', { name: 'Add to cart' })).toHaveCount(0);

  await page.goto(`/products/${product.urlKey}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.getByText('Unavailable', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'ADD TO BASKET' })).toHaveCount(0);
  await expect(page.getByText(/Only 0 items in stock/)).toHaveCount(0);
  await expectNoAxeViolations(page);
});
