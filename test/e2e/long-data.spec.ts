import type { Page } from '@playwright/test';
import { openDatabase } from '../../src/server/db/database.ts';
import { catalogFactory } from '../helpers/catalog-factory.ts';
import { apiPost, axeViolations, expect, signUp, test } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';

/**
 * Long words, as real shoppers have them (issue 32, item 5): a long e-mail address, the Welsh
 * village with the longest name, long names and a product with a long one-word title. On a 390 px
 * phone no storefront page scrolls sideways: text wraps inside its column.
 */
const PHONE = { width: 390, height: 844 };
const PLACE = 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch';
const long = {
  firstname: 'Wolfeschlegelsteinhausenbergerdorffwelchevoralter',
  lastname: 'Llanfairpwllgwyngyllgogerychwyrndrobwllllantysilio',
};
const longAddress = {
  line1: `${PLACE}Cottage${PLACE}`.slice(0, 100),
  line2: `${PLACE}Road`,
  townCity: PLACE,
  postcode: 'LL61 5UJ',
};

/** At most 64 characters before the @ and 254 in all, as the shop allows. */
function longEmail(tag: string): string {
  const local = `${PLACE}${tag}`.toLowerCase().slice(-64);
  return `${local}@${PLACE.toLowerCase()}.${PLACE.toLowerCase()}.example.com`;
}

// The unknown page is answered 404, which the browser reports.
test.use({ viewport: PHONE, allowConsoleErrors: [/status of 404/] });

/**
 * Notes a page that scrolls sideways, with how wide it is, and what axe finds on it: the test
 * goes on, so that its failure lists every page at once.
 */
async function checkPage(page: Page, name: string, problems: string[]) {
  await page.waitForLoadState('networkidle');
  await expect(page.locator('main h1').first()).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  if (width > PHONE.width) problems.push(`${name}: ${width} px wide`);
  // From the top: a field scrolled half under the sticky header counts as a small target to axe.
  await page.evaluate(() => window.scrollTo(0, 0));
  for (const finding of await axeViolations(page)) problems.push(`${name}: ${finding}`);
}

/** A published dhol whose title and size are single long words, in the test server's database. */
async function longProduct() {
  const db = openDatabase(`sqlite:${databaseFor(Number(process.env.E2E_PORT ?? 3555))}`);
  try {
    const stamp = Date.now().toString(36);
    return await catalogFactory(db).product({
      typeId: 2010,
      brandId: 1,
      title: `${PLACE}Weddingdhol${stamp}`,
      urlKey: `long-word-dhol-${stamp}`,
      description: `${PLACE}${PLACE}\nA dhol for a long wedding.`,
      stocks: [{ sizeName: `Extralargeceremonialprocessionsize${stamp}`, price: 1234567, stock: 50 }],
    });
  } finally {
    await db.destroy();
  }
}

async function fillLongDetails(page: Page, email: string) {
  await page.getByLabel('Title').selectOption({ label: 'MRS' });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First Name').fill(long.firstname);
  await page.getByLabel('Last Name').fill(long.lastname);
  await page.getByLabel('Contact Number').fill('01248 714 000');
  await page.getByLabel('Address Line 1').fill(longAddress.line1);
  await page.getByLabel('Address Line 2').fill(longAddress.line2);
  await page.getByLabel('Post Code').fill(longAddress.postcode);
  await page.getByLabel('Town / City').fill(longAddress.townCity);
  await page.getByLabel('Country').selectOption({ label: 'United Kingdom' });
}

test('a guest with long words: no page scrolls sideways on a phone, from the product to the order', async ({
  page,
}) => {
  test.slow();
  const problems: string[] = [];
  const product = await longProduct();
  const email = longEmail(`guest${Date.now()}`);

  await page.goto(`/products/${product.urlKey}`);
  await checkPage(page, 'product', problems);
  await page.goto(`/search?k=${encodeURIComponent(product.title)}`);
  await expect(page.getByRole('article', { name: product.title })).toBeVisible();
  await checkPage(page, 'search', problems);
  await page.getByRole('article', { name: product.title }).getByRole('button', { name: 'Add to cart' }).click();
  await page.getByLabel('Quantity').fill('2');
  await checkPage(page, 'search, a card open', problems);
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Added to Basket')).toBeVisible();

  await page.goto('/shoppingcart');
  await expect(page.getByRole('heading', { level: 2, name: product.title })).toBeVisible();
  await checkPage(page, 'basket', problems);
  await page.getByLabel('Quantity').fill('x');
  await page.getByRole('button', { name: 'UPDATE BASKET' }).click();
  await expect(page.getByText('Please specify a valid quantity.')).toBeVisible();
  await checkPage(page, 'basket, a line in error', problems);
  await page.getByLabel('Quantity').fill('2');
  await page.getByRole('button', { name: 'UPDATE BASKET' }).click();

  await page.goto('/checkout');
  await checkPage(page, 'checkout sign-in', problems);
  await page.goto('/checkout-details');
  await fillLongDetails(page, email);
  await checkPage(page, 'your details', problems);
  await page.getByRole('button', { name: 'NEXT' }).click();
  await expect(page).toHaveURL(/\/checkout-delivery$/);
  await page.getByLabel('Same as Billing Address').check();
  await page.getByRole('button', { name: 'Confirm Address' }).click();
  await page.getByLabel(/Express delivery/).check();
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();
  await checkPage(page, 'delivery', problems);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/checkout-review$/);
  await expect(page.getByText(email)).toBeVisible();
  await checkPage(page, 'review', problems);

  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await page.getByRole('link', { name: 'Cancel and return to the shop' }).click();
  await expect(page).toHaveURL(/\/payment-declined$/);
  await checkPage(page, 'payment cancelled', problems);
  await page.goto('/checkout-review');
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  await checkPage(page, 'confirmation', problems);

  // An unpaid order with the same long words, opened from its recovery link.
  const response = await apiPost(page, '/api/basket', {
    items: [{ productStockId: product.stockIds[0], requestedQty: 1 }],
    guest: { titleId: 2, firstname: long.firstname, lastname: long.lastname, email, contactNumber: '01248 714 000' },
    billingAddress: { ...longAddress, countryId: 1 },
    deliveryAddress: { ...longAddress, countryId: 1 },
    deliveryMethodRateId: 3,
  });
  const order = (await response.json()) as { ok: boolean; orderCode: string };
  expect(order.ok).toBe(true);
  await page.goto(`/order-recovery/${order.orderCode}`);
  await expect(page.getByText(email)).toBeVisible();
  await checkPage(page, 'order recovery', problems);

  expect(problems).toEqual([]);
});

test('a customer with long words: no account or shop page scrolls sideways on a phone', async ({ page }) => {
  test.slow();
  const problems: string[] = [];
  const email = longEmail(`customer${Date.now()}`);

  await page.goto('/register');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First Name').fill(long.firstname);
  await page.getByRole('button', { name: 'REGISTER' }).click();
  await checkPage(page, 'register, with messages', problems);
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await checkPage(page, 'login', problems);

  await signUp(page, email);
  await page.goto('/account-home');
  await page.getByLabel('First Name').fill(long.firstname);
  await page.getByLabel('Last Name').fill(long.lastname);
  await page.getByLabel('Contact Number').fill('01248 714 000');
  for (const name of ['Billing Address', 'Delivery Address']) {
    const region = page.getByRole('region', { name });
    await region.getByLabel('Address Line 1').fill(longAddress.line1);
    await region.getByLabel('Address Line 2').fill(longAddress.line2);
    await region.getByLabel('Post Code').fill(longAddress.postcode);
    await region.getByLabel('Town / City').fill(longAddress.townCity);
    await region.getByLabel('Country').selectOption({ label: 'United Kingdom' });
  }
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog').getByText('Your details have been saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Close' }).click();
  await page.reload();
  await expect(page.getByRole('link', { name: new RegExp(long.firstname, 'i') })).toBeVisible();
  await checkPage(page, 'my account', problems);

  // Every other page, with the long name in the top bar.
  for (const path of [
    '/home',
    '/search',
    '/about',
    '/contact',
    '/termsandconditions',
    '/shoppingcart',
    '/forgotpassword',
    '/no-such-page',
  ]) {
    await page.goto(path);
    await checkPage(page, path, problems);
  }

  // Checkout with the saved details, the order then in My Account's history.
  const product = await longProduct();
  await page.goto(`/products/${product.urlKey}`);
  await page.getByRole('button', { name: 'ADD TO BASKET' }).click();
  await expect(page.getByText('Product added to Basket!')).toBeVisible();
  await page.goto('/checkout-details');
  await expect(page.getByTestId('saved-billing')).toBeVisible();
  await checkPage(page, 'your details, saved address', problems);
  await page.getByRole('button', { name: 'NEXT' }).click();
  await expect(page.getByTestId('saved-delivery')).toBeVisible();
  await checkPage(page, 'delivery, saved address', problems);
  await page.getByRole('button', { name: 'Deliver to this address' }).click();
  await page.getByLabel(/Express delivery/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/checkout-review$/);
  await checkPage(page, 'review, signed in', problems);
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  await page.goto('/account-home#orders');
  await expect(page.getByText(product.title)).toBeVisible();
  await checkPage(page, 'my account, an order', problems);

  expect(problems).toEqual([]);
});
