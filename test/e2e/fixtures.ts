import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type BrowserContext, type Page } from '@playwright/test';
import { decodeQuotedPrintable, readOutbox } from '../helpers/outbox.ts';
import { outboxFor } from './outbox-path.ts';

/**
 * The browser tests' `test`: it fails on any console error the test did not expect, and gives
 * an axe check that must find nothing (WCAG 2.2 A and AA).
 */
export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleErrors: string[] }>({
  allowConsoleErrors: [[], { option: true }],
  // A page drawn on the server starts its code after its first paint (/boot.js,
  // docs/decisions/0021-server-rendering.md): a click before the page is hydrated would do nothing,
  // so a page loaded whole is used once it is (layout.tsx marks it), as a shopper would see it.
  // Every page of the test's browser, the test's own and any it opens.
  context: async ({ context, javaScriptEnabled }, use) => {
    if (javaScriptEnabled === false) withoutScripts.add(context);
    for (const page of context.pages()) waitForHydration(page);
    context.on('page', waitForHydration);
    await use(context);
  },
  // And the pages of any other browser a test opens (a second shopper beside staff).
  browser: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const context = await newContext(...args);
        if (args[0]?.javaScriptEnabled === false) withoutScripts.add(context);
        context.on('page', waitForHydration);
        return context;
      };
      await use(browser);
    },
    { scope: 'worker' },
  ],
  consoleErrors: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !allowConsoleErrors.some((allowed) => allowed.test(message.text()))) {
          // Where it came from: "Failed to load resource" alone does not say which resource.
          const { url } = message.location();
          errors.push(url ? `${message.text()} (${url})` : message.text());
        }
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Browsers that run no script, where no page is ever hydrated. */
const withoutScripts = new WeakSet<BrowserContext>();
/** Pages whose loads already wait for hydration. */
const waiting = new WeakSet<Page>();

function waitForHydration(page: Page): void {
  if (waiting.has(page)) return;
  waiting.add(page);
  const hydrated = async () => {
    if (withoutScripts.has(page.context())) return;
    await page.waitForFunction(
      () => !document.querySelector('script[src="/boot.js"]') || document.documentElement.hasAttribute('data-hydrated'),
    );
  };
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (...args) => {
    const response = await goto(...args);
    await hydrated();
    return response;
  };
  page.reload = async (...args) => {
    const response = await reload(...args);
    await hydrated();
    return response;
  };
}

/** What axe finds on the page (WCAG 2.2 A and AA), one line for each rule broken. */
export async function axeViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return results.violations.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

export async function expectNoAxeViolations(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

/**
 * Every control in the page's main part that a thumb taps is at least 24 by 24 px (WCAG 2.2,
 * 2.5.8). A radio button or a box to tick counts with the label that wraps it, which takes the tap too.
 */
export async function expectTapTargets(page: Page): Promise<void> {
  const small = await page.locator('main').evaluate((main) =>
    [...main.querySelectorAll<HTMLElement>('a[href], button, input, select, textarea, summary, [tabindex="0"]')]
      .filter((control) => control.offsetParent !== null && (control as HTMLInputElement).type !== 'hidden')
      .map((control) => {
        const choice = control instanceof HTMLInputElement && ['radio', 'checkbox'].includes(control.type);
        const target = (choice && control.closest('label')) || control;
        return { control, box: target.getBoundingClientRect() };
      })
      .filter(({ box }) => box.width < 24 || box.height < 24)
      .map(
        ({ control, box }) => `${control.outerHTML.slice(0, 90)} ${Math.round(box.width)}x${Math.round(box.height)}`,
      ),
  );
  expect(small).toEqual([]);
}

/**
 * axe on a page as a browser without JavaScript shows it. axe is a script, which such a browser
 * does not run, so the page's document as drawn there (a `<noscript>`'s content drawn as the page's
 * own) is opened at its address in a browser of its own with scripts on, the shop's scripts left
 * out, and checked there; its styles and pictures come from the shop as before.
 */
export async function expectNoAxeViolationsWithoutScripts(page: Page): Promise<void> {
  const html = (await page.content())
    .replace(/<\/?noscript>/g, '')
    .replace(/<script\b[^>]*\bsrc="[^"]*"[^>]*><\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '');
  const browser = page.context().browser();
  if (!browser) throw new Error('the page has no browser to open a second page in');
  // (A test's own options, its javaScriptEnabled: false among them, are every new context's defaults.)
  const context = await browser.newContext({ javaScriptEnabled: true });
  try {
    const copy = await context.newPage();
    await copy.route(page.url(), (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await copy.route(/\.js(\?|$)/, (route) => route.abort());
    await copy.goto(page.url());
    await expectNoAxeViolations(copy);
  } finally {
    await context.close();
  }
}

/** A token being asked for, per browser: posts made at once share it (each asking would set another). */
const tokensAsked = new WeakMap<BrowserContext, Promise<void>>();

/** A POST from the test, carrying the CSRF cookie and header as the shop's page does. */
export async function apiPost(page: Page, url: string, data: unknown) {
  const cookieToken = async () => (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!(await cookieToken())) {
    let asking = tokensAsked.get(page.context());
    if (!asking) {
      asking = page.request.get('/api/csrf-token').then(() => undefined);
      tokensAsked.set(page.context(), asking);
    }
    await asking;
  }
  return page.request.post(url, { data: data as object, headers: { 'x-xsrf-token': (await cookieToken()) ?? '' } });
}

/** A demo product of a type with at least `entries` stock entries, all with 2 or more in stock. */
export async function productWithSizes(page: Page, typeId = 2010, entries = 2) {
  const response = await apiPost(page, '/api/search', { typeId: [typeId], pageSize: 100 });
  const { results } = (await response.json()) as {
    results: Array<{
      title: string;
      urlKey: string;
      stocks: Array<{ id: number; stock: number; price: number; productSizeName: string }>;
    }>;
  };
  const product = results.find((p) => p.stocks.length >= entries && p.stocks.every((s) => s.stock >= 2));
  if (!product) throw new Error(`the demo catalogue has no product of type ${typeId} with ${entries} entries in stock`);
  return product;
}

/**
 * A guest's order of 2 units to `postcode`, paid as a shopper would: through the PayPal sandbox, or
 * with `card` on the Opayo sandbox's card page (on the shop that takes cards). A product of
 * `typeId`: a test that counts its stock buys one of a type no other test buys at the same time.
 */
export async function paidOrder(page: Page, postcode: string, email: string, card?: string, typeId = 2033) {
  const { lines, orderNumber } = await paidOrderOf(page, postcode, email, [{ typeId, quantity: 2 }], card);
  const { product, stock } = lines[0]!;
  return { product, stock, orderNumber };
}

/**
 * A guest's paid order (as `paidOrder`) of several lines: for each, `quantity` units of a product of
 * `typeId`, a different type each so that every line is a different product.
 */
export async function paidOrderOf(
  page: Page,
  postcode: string,
  email: string,
  wanted: ReadonlyArray<{ typeId: number; quantity: number }>,
  card?: string,
) {
  const lines = [];
  for (const { typeId, quantity } of wanted) {
    const product = await productWithSizes(page, typeId, 1);
    lines.push({ product, stock: product.stocks[0]!, quantity });
  }
  const address = { line1: '1 Cliff Road', postcode, townCity: 'Penzance', countryId: 1 };
  const response = await apiPost(page, '/api/basket', {
    items: lines.map((line) => ({ productStockId: line.stock.id, requestedQty: line.quantity })),
    guest: { titleId: 2, firstname: 'Meera', lastname: 'Joshi', email, contactNumber: '01736 000000' },
    billingAddress: address,
    deliveryAddress: address,
    deliveryMethodRateId: 3,
  });
  const order = (await response.json()) as { ok: boolean; orderNumber: number; orderCode: string };
  expect(order.ok).toBe(true);
  await page.goto(`/order-recovery/${order.orderCode}`);
  await page.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  if (card) await page.getByLabel('Card number').fill(card);
  await page.getByRole('button', { name: /^Pay £/ }).click();
  await expect(page.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
  return { lines, orderNumber: order.orderNumber };
}

/** The shop served with Opayo as its payment provider (the second web server). */
export const opayoShop = `http://localhost:${Number(process.env.E2E_PORT ?? 3555) + 1}`;

/** Adds 2 of a product; `typeId` picks one no parallel test buys when a test counts its stock. */
export async function fillBasket(page: Page, typeId = 2010) {
  const product = await productWithSizes(page, typeId, 1);
  await page.goto(`/products/${product.urlKey}`);
  await page.getByLabel('Quantity').fill('2');
  await page.getByRole('button', { name: 'ADD TO BASKET' }).click();
  await expect(page.getByText('Product added to Basket!')).toBeVisible();
  return product;
}

export async function fillDetails(page: Page) {
  await page.getByLabel('Title').selectOption({ label: 'MS' });
  await page.getByLabel('Email').fill('asha@example.com');
  await page.getByLabel('First Name').fill('Asha');
  await page.getByLabel('Last Name').fill('Kaur');
  await page.getByLabel('Contact Number').fill('0121 496 0000');
  await page.getByLabel('Address Line 1').fill('12 Market Street');
  await page.getByLabel('Post Code').fill('B70 7NJ');
  await page.getByLabel('Town / City').fill('West Bromwich');
  await page.getByLabel('Country').selectOption({ label: 'United Kingdom' });
}

/** The newest link to `path` e-mailed to `to`, from the test server's outbox. */
export async function linkFrom(page: Page, to: string, path: string): Promise<string> {
  const outbox = outboxFor(Number(new URL(page.url()).port));
  let link: string | undefined;
  await expect
    .poll(() => {
      const mail = readOutbox(outbox)
        .filter((m) => m.to === to)
        .at(-1);
      link = new RegExp(`https?://[^\\s"<]+/${path}/[A-Za-z0-9_-]+`).exec(decodeQuotedPrintable(mail?.raw ?? ''))?.[0];
      return link;
    })
    .toBeTruthy();
  return new URL(link as string).pathname;
}

export const CUSTOMER_PASSWORD = 'Dholak-Wedding-2026';

/** Registers Arjun Mehta (or another title) under `email`, not yet activated. */
export async function register(page: Page, email: string, title = 'MR') {
  await page.goto('/register');
  await page.getByLabel('Title').selectOption({ label: title });
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('First Name').fill('Arjun');
  await page.getByLabel('Last Name').fill('Mehta');
  await page.getByLabel('Password (at least 10 characters)').fill(CUSTOMER_PASSWORD);
  await page.getByLabel('Confirm Password').fill(CUSTOMER_PASSWORD);
  await page.getByRole('button', { name: 'REGISTER' }).click();
  await expect(page.getByRole('heading', { name: 'Registration complete' })).toBeVisible();
}

/** Checkout step 1 filled in (fillDetails) and done, with an item in the basket. */
export async function detailsDone(page: Page) {
  await page.goto('/checkout-details');
  await fillDetails(page);
  await page.getByRole('button', { name: 'NEXT' }).click();
  await expect(page).toHaveURL(/\/checkout-delivery$/);
}

/** Checkout step 2 done from the delivery page: the billing address, express delivery. */
export async function deliveryDone(page: Page) {
  await page.getByLabel('Same as Billing Address').check();
  await page.getByRole('button', { name: 'Confirm Address' }).click();
  await page.getByLabel(/Express delivery/).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/checkout-review$/);
}

/** Registers, activates by the e-mailed link, and signs in. */
export async function signUp(page: Page, email: string, title = 'MR') {
  await register(page, email, title);
  await page.goto(await linkFrom(page, email, 'verify-account'));
  await expect(page.getByRole('heading', { name: 'Account Activated' })).toBeVisible();
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(CUSTOMER_PASSWORD);
  await page.getByRole('button', { name: 'LOG IN' }).click();
  await expect(page.getByText('You are signed in.')).toBeVisible();
}

/** On My Account: a Birmingham billing address, also the delivery address, and a number, saved. */
export async function saveAccountAddress(page: Page) {
  const billing = page.getByRole('region', { name: 'Billing Address' });
  await billing.getByLabel('Address Line 1').fill('3 Bandstand Row');
  await billing.getByLabel('Address Line 2').fill('Soho Road');
  await billing.getByLabel('Post Code').fill('B21 9RY');
  await billing.getByLabel('Town / City').fill('Birmingham');
  await billing.getByLabel('Country').selectOption({ label: 'United Kingdom' });
  await page.getByLabel('Contact Number').fill('0121 496 0300');
  await page.getByLabel('Use Billing Address').check();
  await page.getByRole('button', { name: 'Save Changes' }).click();
  await expect(page.getByRole('dialog').getByText('Your details have been saved.')).toBeVisible();
}
