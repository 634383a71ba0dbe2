import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { readOutbox } from '../helpers/outbox.ts';
import { apiPost, expect, expectNoAxeViolations, productWithSizes, test } from './fixtures.ts';
import { databaseFor, outboxFor } from './outbox-path.ts';
import { testEnvironment } from '../helpers/test-environment.ts';

/**
 * PayPal Checkout (Orders v2) in the local sandbox, on the shop's third test server
 * (PAYPAL_INTEGRATION=checkout): approve, return, ORDER COMPLETE and the e-mail; a cancelled
 * approval that leaves the basket recoverable; and a staff refund, part then the rest, through
 * PayPal, shown on the order and in the sandbox.
 */
// 100 above the first server: the ports just above it are neighbouring checkouts' first servers.
const port = Number(process.env.E2E_PORT ?? 3555) + 100;
const PASSWORD = 'Ledger-Tabla-Harmonium-7';
test.use({ baseURL: `http://localhost:${port}` });

/** A guest's order of 2 units, committed, then SECURE CHECKOUT from its recovery page. */
async function toPaypal(page: Page, email: string) {
  const product = await productWithSizes(page, 2033, 1);
  const stock = product.stocks[0]!;
  const address = { line1: '4 Harbour Street', postcode: 'TR18 2LZ', townCity: 'Penzance', countryId: 1 };
  const response = await apiPost(page, '/api/basket', {
    items: [{ productStockId: stock.id, requestedQty: 2 }],
    guest: { titleId: 2, firstname: 'Kavya', lastname: 'Rao', email, contactNumber: '01736 000001' },
    billingAddress: address,
    deliveryAddress: address,
    deliveryMethodRateId: 3,
  });
  const order = (await response.json()) as { ok: boolean; orderNumber: number; orderCode: string };
  expect(order.ok).toBe(true);
  await page.goto(`/order-recovery/${order.orderCode}`);
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await expect(page.getByRole('heading', { name: 'PayPal sandbox: approve your payment' })).toBeVisible();
  return { product, orderNumber: order.orderNumber };
}

async function paid(page: Page, email: string) {
  const order = await toPaypal(page, email);
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  return order;
}

test('a purchase through PayPal Checkout: approve, return, ORDER COMPLETE and the confirmation e-mail', async ({
  page,
}) => {
  const email = `kavya.${Date.now()}@example.com`;
  const { orderNumber } = await paid(page, email);
  await expect(page).toHaveURL(/\/checkout-confirm$/);
  await expectNoAxeViolations(page);
  await expect
    .poll(() =>
      readOutbox(outboxFor(port)).some((m) => m.to === email && m.subject === `Your order ${orderNumber} is confirmed`),
    )
    .toBe(true);
});

test('a cancelled approval leaves the basket recoverable', async ({ page }) => {
  const { product } = await toPaypal(page, `kavya.cancel.${Date.now()}@example.com`);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(/\/payment-declined(\?|$)/);
  await expect(page.getByRole('heading', { level: 1, name: 'Payment Cancelled' })).toBeVisible();
  await expect(page.getByText(/Your basket has been kept/)).toBeVisible();
  await page.getByRole('button', { name: 'BACK TO BASKET' }).click();
  await expect(page).toHaveURL(/\/shoppingcart$/);
  await expect(page.getByRole('heading', { level: 2, name: product.title })).toBeVisible();
});

test.describe('a staff refund through PayPal', () => {
  // Signed out, the back office asks who is signed in (401).
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('refunds part, then the rest, and shows both on the order and in the sandbox', async ({ page, browser }) => {
    test.slow();
    const shopper = await (await browser.newContext({ baseURL: `http://localhost:${port}` })).newPage();
    const { orderNumber } = await paid(shopper, `kavya.refund.${Date.now()}@example.com`);

    const ownerEmail = `owner.checkout.${Date.now()}@example.com`;
    const printed = execFileSync(
      process.execPath,
      ['src/server/staff/cli/create-staff.ts', '--email', ownerEmail, '--role', 'owner', '--name', 'Asha Owner'],
      { env: { ...process.env, ...testEnvironment, DATABASE_URL: `sqlite:${databaseFor(port)}` } },
    ).toString();
    const link = /https?:\/\/\S+\/admin\/set-password\/\S+/.exec(printed)?.[0] as string;
    await page.goto(new URL(link).pathname);
    await page.getByLabel('New password').fill(PASSWORD);
    await page.getByLabel('Confirm the password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password' }).click();
    await page.getByRole('link', { name: 'Sign in' }).click();
    await page.getByLabel('E-mail address').fill(ownerEmail);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

    await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Orders' }).click();
    await page.getByRole('link', { name: String(orderNumber) }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
    await expect(page.getByText('This refund is sent through the payment provider')).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel('Amount (£)').fill('5.00');
    await page.getByLabel('Reason', { exact: true }).fill('One arrived scratched');
    await page.getByRole('button', { name: 'Refund through the provider' }).click();
    await page.getByRole('button', { name: /^Yes, refund £/ }).click();
    await expect(page.getByText('Refunded through the provider.')).toBeVisible();
    await expect(page.getByRole('row', { name: /^Refunded -£/ })).toContainText('-£5.00');

    const left = (await page.getByText(/Up to £[\d.,]+ is left to refund/).innerText()).match(/£([\d.,]+)/)?.[1] ?? '';
    await page.getByLabel('Amount (£)').fill(left);
    await page.getByLabel('Reason', { exact: true }).fill('Returned');
    await page.getByRole('button', { name: 'Refund through the provider' }).click();
    await page.getByRole('button', { name: /^Yes, refund £/ }).click();
    await expect(page.getByRole('heading', { name: 'Refund', exact: true })).toHaveCount(0);
    await expect(page.getByText(/PayPal, [A-Z0-9]{17}/)).toHaveCount(2);

    await page.goto('/sandbox/paypal/activity');
    await expect(page.getByRole('row', { name: new RegExp(`Refund .* Order ${orderNumber} -£5\\.00`) })).toBeVisible();
    await expect(
      page.getByRole('row', { name: new RegExp(`Refund .* Order ${orderNumber} -£${left.replace('.', '\\.')}`) }),
    ).toBeVisible();
  });
});
