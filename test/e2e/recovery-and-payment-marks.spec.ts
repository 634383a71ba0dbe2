import { apiPost, expect, expectNoAxeViolations, productWithSizes, test } from './fixtures.ts';

/** A paid order's recovery link, and our own payment marks. */
test.describe('a recovery link for an order already paid', () => {
  test.use({ allowConsoleErrors: [/status of 404/] });
  for (const width of [1366, 390]) {
    test(`says it is paid and shows the order's number and status, at ${width} px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 });
      const product = await productWithSizes(page);
      const address = { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 };
      const response = await apiPost(page, '/api/basket', {
        items: [{ productStockId: product.stocks[0]!.id, requestedQty: 1 }],
        guest: {
          titleId: 2,
          firstname: 'Ravi',
          lastname: 'Shankar',
          email: 'ravi@example.com',
          contactNumber: '0121 496 0001',
        },
        billingAddress: address,
        deliveryAddress: address,
        deliveryMethodRateId: 3,
      });
      const order = (await response.json()) as { ok: boolean; orderNumber: number; orderCode: string };
      expect(order.ok).toBe(true);
      await page.goto(`/order-recovery/${order.orderCode}`);
      // The review's own marks for the ways to pay, with text alternatives, and no padlock emoji.
      await expect(page.getByRole('img', { name: 'PayPal' })).toBeVisible();
      await expect(page.getByRole('img', { name: 'Card payments' })).toBeVisible();
      await expect(page.getByText('🔒')).toHaveCount(0);
      await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
      await page.getByRole('button', { name: /^Pay £/ }).click();
      await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();

      await page.goto(`/order-recovery/${order.orderCode}`);
      await expect(page).toHaveURL(new RegExp(`/order-recovery/${order.orderCode}$`));
      await expect(page.getByRole('heading', { name: 'This order has been paid' })).toBeVisible();
      await expect(page.getByTestId('paid-order-number')).toHaveText(String(order.orderNumber));
      await expect(page.getByTestId('paid-order-status')).toHaveText('Paid');
      // No more than the order status page shows: nothing of the shopper's details.
      await expect(page.getByText('RAVI SHANKAR')).toHaveCount(0);
      await expectNoAxeViolations(page);
    });
  }
});
