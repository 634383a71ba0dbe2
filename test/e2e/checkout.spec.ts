import type { Page } from '@playwright/test';
import { decodeQuotedPrintable, readOutbox } from '../helpers/outbox.ts';
import {
  apiPost,
  detailsDone,
  expect,
  expectNoAxeViolations,
  fillBasket,
  fillDetails,
  opayoShop,
  productWithSizes,
  test,
} from './fixtures.ts';
import { outboxFor } from './outbox-path.ts';

test('a guest goes from the basket to a committed order, with every step checked', async ({ page }) => {
  // One product from a card in the search results...
  const tabla = await productWithSizes(page, 2035, 1);
  await page.goto('/home');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'SEARCH' }).click();
  await page.getByRole('searchbox', { name: 'Search products' }).fill(tabla.title);
  await page.getByRole('searchbox', { name: 'Search products' }).press('Enter');
  const card = page.getByRole('article', { name: tabla.title });
  await card.getByRole('button', { name: 'Add to cart' }).click();
  await card.getByRole('button', { name: 'Confirm' }).click();
  await expect(card.getByText('Added to Basket')).toBeVisible();
  // ...and one from its product page (a sitar: no other test buys one, so its stock count is ours).
  const product = await fillBasket(page, 2019);

  // The cart: edit a quantity beyond the stock, then fix it.
  await page.getByRole('link', { name: /Basket:/ }).click();
  await expect(page).toHaveURL(/\/shoppingcart$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Your Cart' })).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: tabla.title })).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('3 Items');
  const quantity = page.getByRole('listitem').filter({ hasText: product.title }).getByLabel('Quantity');
  await quantity.fill('abc');
  await page.getByRole('button', { name: 'UPDATE BASKET' }).click();
  await expect(page.getByText('Please specify a valid quantity.')).toBeVisible();
  await quantity.fill('1');
  await page.getByRole('button', { name: 'UPDATE BASKET' }).click();
  await expect(page.getByText('Please specify a valid quantity.')).toBeHidden();
  await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
  await page.getByRole('button', { name: 'PROCEED TO CHECKOUT' }).click();

  // Your Details: every required field's message, then filled in.
  await expect(page).toHaveURL(/\/checkout-details$/);
  await expect(page.getByRole('list').filter({ hasText: 'Your Details' }).locator('[aria-current="step"]')).toHaveText(
    /Your Details/,
  );
  await page.getByRole('button', { name: 'NEXT' }).click();
  for (const message of [
    'Please select your Title',
    'Please provide your First Name',
    'Please provide your Last Name',
    'Please provide your Email Address',
    'Please provide your Contact Number',
    'Please provide your Address Line 1',
    'Please provide your Post Code',
    'Please provide your Town / City',
    'Please select your Country',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await fillDetails(page);
  await page.getByRole('button', { name: 'NEXT' }).click();

  // Delivery: same as billing, confirm, then the option rule.
  await expect(page).toHaveURL(/\/checkout-delivery$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Same as Billing Address').check();
  await expect(page.getByLabel('Address Line 1')).toHaveValue('12 Market Street');
  await page.getByRole('button', { name: 'Confirm Address' }).click();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please select a Delivery Option')).toBeVisible();
  await page.getByLabel(/Express delivery/).check();
  await expect(page.getByRole('complementary').getByText('£9.95')).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Review: every voucher outcome message, the input cleared after each attempt.
  await expect(page).toHaveURL(/\/checkout-review$/);
  await expect(page.getByRole('heading', { name: 'Review Order & Payment' })).toBeVisible();
  await expect(page.getByText('MS ASHA KAUR')).toBeVisible();
  const voucher = page.getByLabel('If you have a discount code please enter it below.');
  for (const [code, message] of [
    ['NOPE', 'Voucher is invalid'],
    ['DIWALI2023', 'Voucher has expired'],
    ['TENOFF', 'Voucher applied!'],
  ]) {
    await voucher.fill(code as string);
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByText(message as string)).toBeVisible();
    await expect(voucher).toHaveValue('');
  }
  await expect(page.getByText('Discount Code Applied:')).toContainText('TENOFF');
  const summary = page.getByRole('complementary', { name: 'FINAL SUMMARY' });
  await expect(summary.getByText('-£10.00')).toBeVisible();
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();

  // The PayPal sandbox takes the cart the server built, then sends the IPN and returns the shopper.
  await expect(page.getByRole('heading', { name: 'PayPal sandbox: pay for your order' })).toBeVisible();
  await expect(page.getByText(/No real payment is taken/)).toBeVisible();
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page).toHaveURL(/\/checkout-confirm$/);
  await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  await expect(page.getByTestId('order-number')).toHaveText(/^1\d{5}$/);
  await expect(page.getByTestId('transaction-id')).toHaveText(/^[0-9A-F]{17}$/);
  await expect(page.getByTestId('cart-count')).toHaveText('0 Items');
  // The confirmation e-mail is in the shop's outbox.
  const orderNumber = await page.getByTestId('order-number').innerText();
  const outbox = outboxFor(Number(new URL(page.url()).port));
  await expect
    .poll(() => readOutbox(outbox).some((m) => m.subject === `Your order ${orderNumber} is confirmed`))
    .toBe(true);
  const mail = readOutbox(outbox).find((m) => m.subject === `Your order ${orderNumber} is confirmed`);
  expect(mail?.to).toBe('asha@example.com');
  expect(decodeQuotedPrintable(mail?.raw ?? '')).toContain(product.title);
  // The stock is reserved on the server.
  const after = await (await page.request.get(`/api/products/${product.urlKey}`)).json();
  const before = product.stocks[0]!;
  expect(after.stocks.find((s: { id: number }) => s.id === before.id).stock).toBe(before.stock - 1);
});

test('the checkout steps send an empty basket home', async ({ page }) => {
  for (const path of [
    '/checkout',
    '/checkout-details',
    '/checkout-delivery',
    '/checkout-review',
    '/checkout-confirm',
  ]) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/home$/);
  }
});

test('review sends a basket without a delivery option back to the delivery step', async ({ page }) => {
  await fillBasket(page);
  // Your Details done first: without them, review sends the shopper to step 1.
  await detailsDone(page);
  await page.goto('/checkout-review');
  await expect(page).toHaveURL(/\/checkout-delivery$/);
});

test('axe finds nothing on the cart and the checkout screens', async ({ page }) => {
  // Seven full axe scans and a purchase: more than the default 30 s when CI runs two workers.
  test.slow();
  await fillBasket(page);
  for (const path of ['/shoppingcart', '/checkout', '/checkout-details']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page);
  }
  await page.getByRole('button', { name: 'NEXT' }).click();
  await expectNoAxeViolations(page);
  await fillDetails(page);
  await page.getByRole('button', { name: 'NEXT' }).click();
  await expect(page).toHaveURL(/\/checkout-delivery$/);
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page);
  await page.getByLabel('Same as Billing Address').check();
  await page.getByRole('button', { name: 'Confirm Address' }).click();
  await page.getByLabel(/Express delivery/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/checkout-review$/);
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  await expectNoAxeViolations(page);
});

test('an unpaid order comes back through its recovery link, ready for payment', async ({ page }) => {
  const product = await productWithSizes(page);
  const response = await apiPost(page, '/api/basket', {
    items: [{ productStockId: product.stocks[0]!.id, requestedQty: 1 }],
    guest: {
      titleId: 2,
      firstname: 'Ravi',
      lastname: 'Shankar',
      email: 'ravi@example.com',
      contactNumber: '0121 496 0001',
    },
    billingAddress: { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 },
    deliveryAddress: { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 },
    deliveryMethodRateId: 3,
  });
  const order = (await response.json()) as { ok: boolean; orderNumber: number; orderCode: string };
  expect(order.ok).toBe(true);
  await page.goto(`/order-recovery/${order.orderCode}`);
  await expect(page).toHaveTitle(/^Order Recovery \| /);
  await expect(page.getByTestId('recovered-order-number')).toHaveText(String(order.orderNumber));
  await expect(page.getByRole('cell', { name: new RegExp(product.title) })).toBeVisible();
  await expect(page.getByText('RAVI SHANKAR')).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();

  // Cancelling at PayPal: Payment Cancelled, and BACK TO BASKET brings the order's lines back.
  await page.getByRole('link', { name: 'Cancel and return to the shop' }).click();
  await expect(page).toHaveURL(/\/payment-declined$/);
  await expect(page.getByText(/You cancelled the payment, so nothing has been taken\./)).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'BACK TO BASKET' }).click();
  await expect(page).toHaveURL(/\/shoppingcart$/);
  await expect(page.getByRole('heading', { level: 2, name: product.title })).toBeVisible();
  await expect(page.getByRole('button', { name: 'PROCEED TO CHECKOUT' })).toBeVisible();
});

test.describe('an unknown recovery link', () => {
  test.use({ allowConsoleErrors: [/status of 404/] });
  test('goes home', async ({ page }) => {
    await page.goto('/order-recovery/AAAAAAAAAAAAAAAAAAAAAA');
    await expect(page).toHaveURL(/\/home$/);
  });
});

test.describe('paying by card through Opayo', () => {
  test.use({ baseURL: opayoShop });

  async function checkoutToCardForm(page: Page) {
    await fillBasket(page);
    await page.goto('/checkout-details');
    await fillDetails(page);
    await page.getByRole('button', { name: 'NEXT' }).click();
    await page.getByLabel('Same as Billing Address').check();
    await page.getByRole('button', { name: 'Confirm Address' }).click();
    await page.getByLabel(/Express delivery/).check();
    await page.getByRole('button', { name: 'Continue' }).click();
    // A shop paid through Opayo takes cards only: the review shows the card mark, not PayPal's.
    await expect(page.getByRole('img', { name: 'Card payments' })).toBeVisible();
    await expect(page.getByRole('img', { name: 'PayPal' })).toHaveCount(0);
    await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
    await expect(page.getByRole('heading', { name: 'Opayo sandbox: card payment' })).toBeVisible();
  }

  test('an authorised card completes the order', async ({ page }) => {
    await checkoutToCardForm(page);
    await page.getByLabel('Card number').fill('4929 0000 0000 6');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page).toHaveURL(/\/checkout-confirm$/);
    await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
    // Opayo's VPSTxId, without the braces it comes in (issue 32).
    await expect(page.getByTestId('transaction-id')).toHaveText(/^[0-9A-F]{8}(-[0-9A-F]{4}){3}-[0-9A-F]{12}$/);
  });

  test('a declined card shows TRANSACTION FAILED, and the basket comes back to try again', async ({ page }) => {
    await checkoutToCardForm(page);
    await page.getByLabel('Card number').fill('4000000000000002');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('heading', { name: 'TRANSACTION FAILED' })).toBeVisible();
    await expect(page.getByText('Something went wrong. Please ensure your card is valid and try again.')).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'BACK TO CART' }).click();
    await expect(page).toHaveURL(/\/shoppingcart$/);
    await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
    // Trying again replaces the failed order, whose stock comes back first.
    await page.getByRole('button', { name: 'PROCEED TO CHECKOUT' }).click();
    await page.getByRole('button', { name: 'NEXT' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
    await page.getByLabel('Card number').fill('4929000000006');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  });
});
