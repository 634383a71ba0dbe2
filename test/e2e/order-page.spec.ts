import { openDatabase } from '../../src/server/db/database.ts';
import { createOrderLinks } from '../../src/server/orders/order-links.ts';
import { expect, expectNoAxeViolations, expectTapTargets, paidOrderOf, signUp, test } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';

/**
 * The customer's order page (issue 36, item 1): a guest opens their paid order's page by its signed
 * link, sees its lines, totals and status and downloads the invoice; a signed-in customer reaches
 * the same page from My Account; a link that is not the shop's shows a clear "not found".
 */

const port = Number(process.env.E2E_PORT ?? 3555);

/** The link every order e-mail carries, made as the shop makes it: with its secret, from its database. */
async function orderLinkOf(orderNumber: number): Promise<string> {
  const db = openDatabase(`sqlite:${databaseFor(port)}`);
  try {
    const secret = await db.kysely
      .selectFrom('settings')
      .select('value')
      .where('name', '=', 'csrf_secret')
      .executeTakeFirstOrThrow();
    const order = await db.kysely
      .selectFrom('orders')
      .select('link_version')
      .where('order_number', '=', orderNumber)
      .executeTakeFirstOrThrow();
    return createOrderLinks(secret.value).pathOf(orderNumber, order.link_version);
  } finally {
    await db.destroy();
  }
}

test.describe("the customer's order page", () => {
  // Signed out, the app asks who is signed in (401); a link that is not the shop's answers 404.
  test.use({ allowConsoleErrors: [/status of 40[14]/] });

  test('a guest opens a paid order by its link, sees its lines, totals and status, and downloads the invoice', async ({
    page,
  }) => {
    test.slow();
    const email = `guest.order-page.${Date.now()}@example.com`;
    const { lines, orderNumber } = await paidOrderOf(page, 'TR18 4AA', email, [
      { typeId: 2010, quantity: 2 },
      { typeId: 2011, quantity: 1 },
    ]);
    // The confirmation page links to the order's page, as the e-mails do.
    const link = await orderLinkOf(orderNumber);
    await expect(page.getByTestId('order-page-link')).toHaveAttribute('href', link);

    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
    await expect(page.getByTestId('order-payment')).toHaveText('Paid');
    await expect(page.getByTestId('order-fulfilment')).toHaveText('Being prepared');
    const table = page.getByRole('table', { name: `The products on order ${orderNumber}` });
    for (const line of lines) {
      const row = table.getByRole('row', {
        name: new RegExp(line.product.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      });
      await expect(row).toContainText(String(line.quantity));
    }
    const pounds = (pence: number) => `£${(pence / 100).toFixed(2)}`;
    const items = lines.reduce((sum, line) => sum + line.stock.price * line.quantity, 0);
    await expect(page.getByRole('table', { name: 'Totals' })).toContainText(pounds(items));
    await expect(page.getByTestId('delivery-address')).toContainText('1 Cliff Road');
    await expect(page.getByText('Nothing has been sent yet.')).toBeVisible();
    await expectNoAxeViolations(page);

    // The invoice, by its signed link: a PDF.
    const invoice = page.getByTestId('invoice-link');
    const href = await invoice.getAttribute('href');
    expect(href).toMatch(/^\/api\/documents\/invoice\//);
    const [tab] = await Promise.all([page.waitForEvent('popup'), invoice.click()]);
    await tab.close();
    const pdf = await page.request.get(href!);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

    // A link changed by one character opens nothing, and says so.
    await page.goto(`${link.slice(0, -1)}${link.endsWith('A') ? 'B' : 'A'}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Order not found' })).toBeVisible();
    await expect(page.getByTestId('order-not-found')).toContainText('This order link is not valid');
    await expectNoAxeViolations(page);
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('each line stands as a card a shopper reads without sliding anything sideways', async ({ page }) => {
      test.slow();
      const email = `guest.order-page.phone.${Date.now()}@example.com`;
      const { lines, orderNumber } = await paidOrderOf(page, 'TR18 4AB', email, [
        { typeId: 2010, quantity: 2 },
        { typeId: 2011, quantity: 1 },
      ]);
      await page.goto(await orderLinkOf(orderNumber));
      const table = page.getByRole('table', { name: `The products on order ${orderNumber}` });
      await expect(table).toBeVisible();
      // Nothing in the table reaches past its box, and each value says what it is.
      const hidden = await table.evaluate(
        (element) => element.parentElement!.scrollWidth - element.parentElement!.clientWidth,
      );
      expect(hidden).toBe(0);
      const title = lines[0]!.product.title;
      const productCell = table.getByRole('rowheader', {
        name: new RegExp(title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
      });
      // The product's name reads on a line or two, not a letter to a line.
      expect((await productCell.boundingBox())!.width).toBeGreaterThan(250);
      await expect(table.locator('td[data-label="Refunded"]').first()).toBeVisible();
      await expectTapTargets(page);
      await expectNoAxeViolations(page);
    });
  });

  test('a signed-in customer reaches the order page from My Account', async ({ page }) => {
    test.slow();
    const email = `customer.order-page.${Date.now()}@example.com`;
    await signUp(page, email);
    // Placed while signed in (the session goes with the page's requests): the account's order.
    const { orderNumber } = await paidOrderOf(page, 'TR18 4AB', email, [{ typeId: 2010, quantity: 1 }]);
    await page.goto('/account-home#orders');
    await expect(page.getByRole('heading', { name: `Order ${orderNumber}: Paid` })).toBeVisible();
    await page.getByRole('link', { name: new RegExp(`View order ${orderNumber}`) }).click();
    await expect(page).toHaveURL(new RegExp(`/order/${orderNumber}\\.`));
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
    await expect(page.getByTestId('order-payment')).toHaveText('Paid');
    await expectNoAxeViolations(page);
  });
});
