import { apiPost, expect, productWithSizes, test } from './fixtures.ts';

test('a product page adds to the basket and the cart summary follows', async ({ page }) => {
  const product = await productWithSizes(page);
  await page.goto(`/products/${product.urlKey}`);
  await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
  await expect(page).toHaveTitle(new RegExp(`\\| `));
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute(
    'href',
    new RegExp(`/products/${product.urlKey}$`),
  );
  await expect(page.getByText('In Stock')).toBeVisible();
  const second = product.stocks[1]!;
  await page.getByLabel('STYLE/SIZE').selectOption(String(second.id));
  const quantity = page.getByLabel('Quantity');
  await quantity.fill('0');
  await expect(page.getByRole('alert')).toHaveText('Quantity Required');
  await quantity.fill('2');
  await page.getByRole('button', { name: 'ADD TO BASKET' }).click();
  await expect(page.getByText('Product added to Basket!')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
  const total = new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'GBP' }).format((second.price * 2) / 100);
  await expect(page.getByTestId('cart-total')).toHaveText(total);

  // The basket survives a reload.
  await page.reload();
  await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
  await expect(page.getByRole('region', { name: 'You may also be interested in' }).getByRole('article')).toHaveCount(4);
});

test('a product whose first size is sold out opens on a size in stock, and marks the sold-out ones', async ({
  page,
}) => {
  type Found = { urlKey: string; stocks: Array<{ id: number; stock: number; productSizeName: string }> };
  const pages = await Promise.all(
    [1, 2].map(async (pageNumber) => {
      const answer = await apiPost(page, '/api/search', { pageSize: 100, pageNumber });
      return ((await answer.json()) as { results: Found[] }).results;
    }),
  );
  const product = pages
    .flat()
    .find((p) => p.stocks.length > 1 && p.stocks[0]!.stock === 0 && p.stocks.some((s) => s.stock > 0));
  if (!product) throw new Error('the demo catalogue has no product whose first size is sold out and another is not');
  const firstInStock = product.stocks.find((s) => s.stock > 0)!;
  await page.goto(`/products/${product.urlKey}`);
  const size = page.getByLabel('STYLE/SIZE');
  await expect(size).toHaveValue(String(firstInStock.id));
  await expect(page.getByText('In Stock')).toBeVisible();
  for (const entry of product.stocks) {
    const option = size.locator(`option[value="${entry.id}"]`);
    if (entry.stock === 0) {
      await expect(option).toContainText('Sold out');
      await expect(option).toBeDisabled();
    } else await expect(option).not.toContainText('Sold out');
  }
});

test('the gallery overlay opens full size, closes with Escape and gives focus back', async ({ page }) => {
  const product = await productWithSizes(page);
  await page.goto(`/product/${product.urlKey}`);
  const enlarge = page.getByRole('button', { name: /^Enlarge picture 1/ });
  await enlarge.click();
  const overlay = page.getByRole('dialog', { name: /full size/ });
  await expect(overlay).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(overlay).toBeHidden();
  await expect(enlarge).toBeFocused();
});

test.describe('an unknown product', () => {
  test.use({ allowConsoleErrors: [/status of 404/] });

  test('sends the shopper to the search page', async ({ page }) => {
    const response = await page.goto('/products/no-such-instrument');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveURL(/\/search$/);
  });
});

test('a product card adds a chosen size to the basket', async ({ page }) => {
  const product = await productWithSizes(page);
  await page.goto(`/search?k=${encodeURIComponent(product.title)}`);
  const card = page.getByRole('article', { name: product.title });
  await card.getByRole('button', { name: 'Add to cart' }).click();
  const second = product.stocks[1]!;
  await card.getByLabel('Size / Style').selectOption(String(second.id));
  await card.getByLabel('Quantity').fill('1');
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByText('Added to Basket')).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1 Items');
  await card.getByRole('link', { name: 'VIEW CART' }).click();
  await expect(page).toHaveURL(/\/shoppingcart$/);
  await expect(page.getByRole('heading', { level: 2, name: product.title })).toBeVisible();
  await expect(page.getByText(second.productSizeName, { exact: true })).toBeVisible();
});
