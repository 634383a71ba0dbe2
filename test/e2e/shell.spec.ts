import { expect, test } from '@playwright/test';

test('the built app loads and lists the catalogue categories', async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Harmoniums')).toBeVisible();
  await expect(page.getByText('Digital Tanpura')).toBeVisible();
  expect(errors).toEqual([]);
});

test('an unknown page path answers with status 404', async ({ request }) => {
  expect((await request.get('/no-such-page')).status()).toBe(404);
  expect((await request.get('/shopping-cart')).status()).toBe(200);
  expect((await request.get('/shoppingcart')).status()).toBe(200);
});
