import type { Browser, Page } from '@playwright/test';
import { formatPence, penceToDecimal } from '../../src/contract/money.ts';
import {
  apiPost,
  deliveryDone,
  expect,
  expectNoAxeViolations,
  fillBasket,
  fillDetails,
  linkFrom,
  opayoShop,
  test,
} from './fixtures.ts';

/**
 * The basket as it changes behind the page the shopper is looking at (issue 32): in another tab of
 * the same browser, through an order paid on another device, and on the server's word about stock.
 * Each test buys from a type no other test buys (Bansuri 2026, Cases 2030, Strings 2031, Shehnai
 * 2027, Sarangi 2022), so
 * the stock it counts is its own.
 */

test('a quantity changed in a second tab re-prices the review and the cart open in others, whose buttons still work', async ({
  page,
  context,
}) => {
  test.slow();
  const product = await fillBasket(page, 2026);
  await page.goto('/checkout-details');
  await fillDetails(page);
  await page.getByRole('button', { name: 'NEXT' }).click();
  await deliveryDone(page);
  const review = page;
  const summary = review.getByRole('complementary', { name: 'FINAL SUMMARY' });
  await expect(summary).toContainText('2 Items');
  await expect(review.getByRole('button', { name: /SECURE CHECKOUT/ })).toBeVisible();

  // Two more tabs of the same browser: a cart left open, and one where the shopper changes the basket.
  const cart = await context.newPage();
  await cart.goto('/shoppingcart');
  await expect(cart.getByRole('button', { name: 'PROCEED TO CHECKOUT' })).toBeVisible();
  const other = await context.newPage();
  await other.goto('/shoppingcart');
  await other.getByRole('listitem').filter({ hasText: product.title }).getByLabel('Quantity').fill('1');
  await other.getByRole('button', { name: 'UPDATE BASKET' }).click();
  await expect(other.getByTestId('cart-count')).toHaveText('1 Items');

  // The review follows: it says what changed, shows the new price, and SECURE CHECKOUT is back.
  const changed = review.getByRole('status').filter({ hasText: 'Your basket was changed in another window' });
  await expect(changed).toContainText(`${product.title}, ${product.stocks[0]!.productSizeName}: quantity 1, was 2`);
  await expect(summary).toContainText('1 Items');
  await expect(summary).toContainText(formatPence(product.stocks[0]!.price));
  await expect(review.getByTestId('cart-count')).toHaveText('1 Items');
  await expect(review.getByRole('button', { name: /SECURE CHECKOUT/ })).toBeEnabled();
  await expectNoAxeViolations(review);

  // So does the cart: the new quantity and total, and PROCEED TO CHECKOUT.
  await expect(cart.getByRole('status').filter({ hasText: 'changed in another window' })).toBeVisible();
  await expect(cart.getByRole('listitem').filter({ hasText: product.title }).getByLabel('Quantity')).toHaveValue('1');
  await expect(cart.getByRole('complementary', { name: 'SUMMARY' })).toContainText('1 Items');
  await expect(cart.getByRole('button', { name: 'PROCEED TO CHECKOUT' })).toBeVisible();
  await expectNoAxeViolations(cart);

  // And the review's button places the order the shopper now has: one unit, with express delivery.
  await review.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await expect(review.getByRole('heading', { name: 'PayPal sandbox: pay for your order' })).toBeVisible();
  await expect(
    review.getByRole('button', { name: `Pay £${penceToDecimal(product.stocks[0]!.price + 995)}` }),
  ).toBeVisible();
});

test('the cart pill counts what the cart summary counts when the cart refuses a line', async ({ page }) => {
  const kept = await fillBasket(page, 2030);
  const short = await fillBasket(page, 2031);
  // Another shopper takes all but one of the entry our 2 units are of: the cart refuses that line.
  const entry = short.stocks[0]!;
  const address = { line1: '1 High Street', postcode: 'B70 7NJ', townCity: 'West Bromwich', countryId: 1 };
  const taken = await apiPost(page, '/api/basket', {
    items: [{ productStockId: entry.id, requestedQty: entry.stock - 1 }],
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
  expect((await taken.json()).ok).toBe(true);

  await page.goto('/shoppingcart');
  await expect(page.getByRole('listitem').filter({ hasText: short.title })).toContainText(
    /There are (now|only) 1 in stock/,
  );
  const summary = page.getByRole('complementary', { name: 'SUMMARY' });
  const keptTotal = formatPence(kept.stocks[0]!.price * 2);
  await expect(summary).toContainText('2 Items');
  await expect(summary).toContainText(keptTotal);
  await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
  await expect(page.getByTestId('cart-total')).toHaveText(keptTotal);
  await expectNoAxeViolations(page);

  // On any other page after a reload, the pill still counts only what the cart takes.
  await page.goto('/home');
  await expect(page.getByTestId('cart-count')).toHaveText('2 Items');
  await expect(page.getByTestId('cart-total')).toHaveText(keptTotal);
});

test.describe('a basket restored after a declined card, whose order is then paid through its recovery link elsewhere', () => {
  test.use({ baseURL: opayoShop });

  /**
   * Declines a card on this device, brings the basket back (BACK TO CART) and goes on to the
   * review again; then another device pays the order through the link e-mailed after the decline.
   * Answers the paid order's number and the product bought.
   */
  async function restoredThenPaidElsewhere(page: Page, browser: Browser, typeId: number, email: string) {
    const product = await fillBasket(page, typeId);
    await page.goto('/checkout-details');
    await fillDetails(page);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'NEXT' }).click();
    await deliveryDone(page);
    await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
    await page.getByLabel('Card number').fill('4000000000000002');
    await page.getByRole('button', { name: /^Pay £/ }).click();
    await expect(page.getByRole('heading', { name: 'TRANSACTION FAILED' })).toBeVisible();
    await page.getByRole('button', { name: 'BACK TO CART' }).click();
    await page.getByRole('button', { name: 'PROCEED TO CHECKOUT' }).click();
    await page.getByRole('button', { name: 'NEXT' }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page).toHaveURL(/\/checkout-review$/);
    await expect(page.getByRole('button', { name: /SECURE CHECKOUT/ })).toBeVisible();

    const elsewhere = await (await browser.newContext({ baseURL: opayoShop })).newPage();
    await elsewhere.goto(await linkFrom(page, email, 'order-recovery'));
    await elsewhere.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
    await elsewhere.getByLabel('Card number').fill('4929000000006');
    await elsewhere.getByRole('button', { name: /^Pay £/ }).click();
    await expect(elsewhere.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
    const orderNumber = await elsewhere.getByTestId('order-number').innerText();
    await elsewhere.context().close();
    return { orderNumber, product };
  }

  async function stockOf(page: Page, product: { urlKey: string; stocks: Array<{ id: number }> }) {
    const body = (await (await page.request.get(`/api/products/${product.urlKey}`)).json()) as {
      stocks: Array<{ id: number; stock: number }>;
    };
    return body.stocks.find((s) => s.id === product.stocks[0]!.id)?.stock;
  }

  test.describe('refused by the shop', () => {
    // The browser reports the commit's 409 answer as a failed resource.
    test.use({ allowConsoleErrors: [/status of 409/] });
    test('SECURE CHECKOUT on the first device takes no second payment and says the order is paid', async ({
      page,
      browser,
    }) => {
      test.slow();
      const { orderNumber, product } = await restoredThenPaidElsewhere(
        page,
        browser,
        2027,
        'paid-elsewhere-1@example.com',
      );
      await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
      await expect(page).toHaveURL(/\/shoppingcart$/);
      await expect(page.getByRole('status').filter({ hasText: 'has already been paid' })).toContainText(
        `Order ${orderNumber} has already been paid`,
      );
      await expect(page.getByText('Your Shopping Cart is empty')).toBeVisible();
      await expect(page.getByTestId('cart-count')).toHaveText('0 Items');
      await expectNoAxeViolations(page);
      // One order holds the 2 units: no second one was placed.
      expect(await stockOf(page, product)).toBe(product.stocks[0]!.stock - 2);
    });
  });

  test('coming back to the first device, its basket says the order is paid and is not offered again', async ({
    page,
    browser,
  }) => {
    test.slow();
    const { orderNumber, product } = await restoredThenPaidElsewhere(
      page,
      browser,
      2022,
      'paid-elsewhere-2@example.com',
    );
    await page.reload();
    await expect(page).toHaveURL(/\/shoppingcart$/);
    await expect(page.getByRole('status').filter({ hasText: 'has already been paid' })).toContainText(
      `Order ${orderNumber} has already been paid`,
    );
    await expect(page.getByRole('button', { name: 'PROCEED TO CHECKOUT' })).toHaveCount(0);
    await expect(page.getByTestId('cart-count')).toHaveText('0 Items');
    await expectNoAxeViolations(page);
    expect(await stockOf(page, product)).toBe(product.stocks[0]!.stock - 2);
  });
});
