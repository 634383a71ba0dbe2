import { deliveryDone, detailsDone, expect, expectNoAxeViolations, fillBasket, opayoShop, test } from './fixtures.ts';

/**
 * A shopper who cancels at the payment provider is told the payment was cancelled and the basket
 * kept, not that a payment was declined or a card was not valid (issue 32, item 9).
 */

test.describe('a payment cancelled at the provider', () => {
  test('at PayPal: the page says the payment was cancelled and the basket is kept', async ({ page }) => {
    const product = await fillBasket(page, 2021);
    await detailsDone(page);
    await deliveryDone(page);
    await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
    await page.getByRole('link', { name: 'Cancel and return to the shop' }).click();
    await expect(page).toHaveURL(/\/payment-declined$/);
    await expect(page).toHaveTitle(/^Payment Cancelled \| /);
    await expect(page.getByRole('heading', { level: 1, name: 'Payment Cancelled' })).toBeVisible();
    await expect(page.getByText(/You cancelled the payment, so nothing has been taken\./)).toBeVisible();
    await expect(page.getByText(/Your basket has been kept/)).toBeVisible();
    await expect(page.getByText(/declined/i)).toHaveCount(0);
    await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'BACK TO BASKET' }).click();
    await expect(page.getByRole('heading', { level: 2, name: product.title })).toBeVisible();
  });

  test.describe('at Opayo', () => {
    test.use({ baseURL: opayoShop });
    test('the confirmation says the payment was cancelled and the basket is kept, not that the card failed', async ({
      page,
    }) => {
      await fillBasket(page);
      await detailsDone(page);
      await deliveryDone(page);
      await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
      await expect(page.getByRole('heading', { name: 'Opayo sandbox: card payment' })).toBeVisible();
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page).toHaveURL(/\/checkout-confirm$/);
      await expect(page.getByRole('heading', { name: 'PAYMENT CANCELLED' })).toBeVisible();
      await expect(page.getByText(/You cancelled the payment, so nothing has been taken\./)).toBeVisible();
      await expect(page.getByText('TRANSACTION FAILED')).toHaveCount(0);
      await expect(page.getByText(/ensure your card is valid/)).toHaveCount(0);
      await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
      await expectNoAxeViolations(page);
      await page.getByRole('button', { name: 'BACK TO CART' }).click();
      await expect(page).toHaveURL(/\/shoppingcart$/);
      await expect(page.getByRole('button', { name: 'PROCEED TO CHECKOUT' })).toBeVisible();
    });
  });
});
