import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type Page } from '@playwright/test';
import { decodeQuotedPrintable, readOutbox } from '../helpers/outbox.ts';
import { outboxFor } from './outbox-path.ts';

/**
 * The browser tests' `test`: it fails on any console error the test did not expect, and gives
 * an axe check that must find nothing (WCAG 2.2 A and AA).
 */
export const test = base.extend<{ allowConsoleErrors: RegExp[]; consoleErrors: string[] }>({
  allowConsoleErrors: [[], { option: true }],
  consoleErrors: [
    async ({ page, allowConsoleErrors }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !allowConsoleErrors.some((allowed) => allowed.test(message.text()))) {
          errors.push(message.text());
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

export async function expectNoAxeViolations(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  const summary = results.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary).toEqual([]);
}

/** A POST from the test, carrying the CSRF cookie and header as the shop's page does. */
export async function apiPost(page: Page, url: string, data: unknown) {
  let token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!token) {
    await page.request.get('/api/brands');
    token = (await page.context().cookies()).find((c) => c.name === 'XSRF-TOKEN')?.value;
  }
  return page.request.post(url, { data: data as object, headers: { 'x-xsrf-token': token ?? '' } });
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
