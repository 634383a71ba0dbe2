import type { Page } from '@playwright/test';
import { decodeQuotedPrintable, readOutbox } from '../helpers/outbox.ts';
import { expect, expectNoAxeViolations, opayoShop, paidOrder, test } from './fixtures.ts';
import { outboxFor } from './outbox-path.ts';
import { createOwner, openFromNav, setPassword, signIn, totpCode } from './staff-pages.ts';

const port = Number(process.env.E2E_PORT ?? 3555);
async function stockOf(page: Page, urlKey: string, stockId: number): Promise<number> {
  const product = (await (await page.request.get(`/api/products/${urlKey}`)).json()) as {
    stocks: Array<{ id: number; stock: number }>;
  };
  return product.stocks.find((s) => s.id === stockId)?.stock ?? -1;
}

test.describe('the back office', () => {
  // Signed out, the app asks who is signed in (401); a TOTP account's first try answers 401 too.
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('an owner adds staff; they turn on two-factor, find an order by postcode, dispatch it and refund with restock', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = Date.now();
    const ownerEmail = `owner.${stamp}@example.com`;
    const staffEmail = `packer.${stamp}@example.com`;
    const shopperEmail = `meera.${stamp}@example.com`;

    // The first owner, made on the command line, chooses a password and signs in.
    await setPassword(page, createOwner(ownerEmail));
    await expectNoAxeViolations(page);
    await signIn(page, ownerEmail);

    // The owner adds a staff member and passes on their link.
    await openFromNav(page, 'Staff');
    await page.getByLabel('Name').fill('Dev Packer');
    await page.getByLabel('E-mail address').fill(staffEmail);
    await page.getByLabel('Role', { exact: true }).selectOption('staff');
    await page.getByRole('button', { name: 'Add and show the set-password link' }).click();
    const staffLink = new URL((await page.getByTestId('set-password-link').innerText()).trim()).pathname;
    await expect(page.getByRole('cell', { name: staffEmail, exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();

    // The staff member sets a password, signs in and turns on two-factor sign-in.
    await setPassword(page, staffLink);
    await signIn(page, staffEmail);
    await expect(
      page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name: 'Staff' }),
    ).toHaveCount(0);
    await openFromNav(page, 'My account');
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await expectNoAxeViolations(page);
    await page.getByLabel('Six-digit code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await expect(page.getByText('On: signing in asks for a code from your authenticator app.')).toBeVisible();
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signIn(page, staffEmail, () => totpCode(secret, 1));

    // A shopper pays for an order meanwhile.
    const shopper = await browser.newContext();
    const shop = await shopper.newPage();
    const { product, stock, orderNumber } = await paidOrder(shop, 'TR19 7AA', shopperEmail);
    expect(await stockOf(shop, product.urlKey, stock.id)).toBe(stock.stock - 2);

    // Found by its postcode however typed, from a list whose filters are in the URL.
    await openFromNav(page, 'Orders');
    await page.getByRole('searchbox', { name: 'Search' }).fill('tr197aa');
    await page.getByRole('button', { name: 'Find orders' }).click();
    await expect(page).toHaveURL(/\/admin\/orders\?q=tr197aa$/);
    await expect(page.getByRole('link', { name: String(orderNumber) })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Orders' }).getByRole('row')).toHaveCount(2);
    await expect(page.getByRole('link', { name: 'Download CSV' })).toHaveAttribute(
      'href',
      '/api/admin/orders.csv?q=tr197aa',
    );
    await expectNoAxeViolations(page);
    await page.getByRole('link', { name: String(orderNumber) }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeFocused();
    await expect(page.getByText(shopperEmail)).toBeVisible();
    await expectNoAxeViolations(page);

    // One unit now, untracked; the other later with a tracking number: an e-mail for each.
    await page.getByLabel(/units to send/).fill('1');
    await page.getByLabel('Royal Mail 2nd Class, untracked').check();
    await page.getByRole('button', { name: 'Dispatch and e-mail the customer' }).click();
    await expect(page.getByText('Dispatched; the customer has been e-mailed.')).toBeVisible();
    const fulfilments = page.getByRole('region', { name: 'Fulfilments' });
    await expect(fulfilments).toContainText('untracked by Royal Mail 2nd Class');
    await expect(page.getByLabel(/units to send/)).toHaveValue('1');
    await expectNoAxeViolations(page);
    await page.getByLabel('Carrier, parcel 1').fill('Royal Mail');
    await page.getByLabel('Tracking number, parcel 1').fill('RM123456785GB');
    await page.getByRole('button', { name: 'Dispatch and e-mail the customer' }).click();
    await expect(fulfilments.getByRole('link', { name: 'RM123456785GB' })).toBeVisible();
    const outbox = outboxFor(port);
    await expect
      .poll(() => readOutbox(outbox).filter((m) => m.to === shopperEmail && m.subject.includes('on its way')).length)
      .toBe(2);
    const mail = readOutbox(outbox).find(
      (m) => m.to === shopperEmail && m.subject === `Your order ${orderNumber} is on its way`,
    );
    expect(decodeQuotedPrintable(mail?.raw ?? '')).toContain('RM123456785GB');

    // A partial refund that puts both units back: the storefront has them again.
    await page.getByLabel('Amount (£)').fill('5.50');
    await page.getByLabel('Reason', { exact: true }).fill('Stand arrived scratched; customer keeps it at a discount');
    await page.getByLabel(/units to restock/).fill('2');
    await page.getByRole('button', { name: 'Record refund' }).click();
    await page.getByRole('button', { name: /^Yes, record £/ }).click();
    await expect(page.getByText('Refund recorded.')).toBeVisible();
    await expect(page.getByRole('row', { name: /^Refunded -£/ })).toContainText('-£5.50');
    await expectNoAxeViolations(page);
    expect(await stockOf(shop, product.urlKey, stock.id)).toBe(stock.stock);
    await shop.goto(`/products/${product.urlKey}`);
    await expect(shop.getByText('In Stock')).toBeVisible();
    await shopper.close();

    // The dashboard counts the sale today.
    await openFromNav(page, 'Dashboard');
    const today = page.getByRole('region', { name: 'Today' });
    await expect(today.getByText(/^£/).first()).toBeVisible();
    expect(Number((await today.locator('dd').first().innerText()).trim())).toBeGreaterThanOrEqual(1);
    await page.getByText('Sales by day as a table').click();
    await expectNoAxeViolations(page);

    // The shopper checked out as a guest: a customer all the same, found by postcode, with the order.
    await openFromNav(page, 'Customers');
    await page.getByLabel('Search').fill('tr19 7aa');
    await page.getByRole('button', { name: 'Find customers' }).click();
    const shopperRow = page.getByRole('row', { name: new RegExp(shopperEmail) });
    await expect(shopperRow.getByRole('cell', { name: 'Guest', exact: true })).toBeVisible();
    await shopperRow.getByRole('link').click();
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Customer');
    await expect(page.getByRole('link', { name: String(orderNumber), exact: true })).toBeVisible();
    expect(page.url()).not.toContain('@');
    await expectNoAxeViolations(page);

    // The other pages pass axe too; the log shows the dispatch.
    await openFromNav(page, 'Audit log');
    await expect(page.getByRole('cell', { name: /dispatch/i }).first()).toBeVisible();
  });

  test.describe('on the shop that takes cards through Opayo', () => {
    test.use({ baseURL: opayoShop });

    test('a card payment is refunded, part then the rest, through Opayo, shown on the order and in the sandbox', async ({
      page,
      browser,
    }) => {
      test.slow();
      const stamp = Date.now();
      const ownerEmail = `owner.opayo.${stamp}@example.com`;
      const shopper = await (await browser.newContext({ baseURL: opayoShop })).newPage();
      const { orderNumber } = await paidOrder(shopper, 'TR18 4AB', `meera.card.${stamp}@example.com`, '4929000000006');
      await shopper.close();

      await setPassword(page, createOwner(ownerEmail, port + 1));
      await signIn(page, ownerEmail);
      await openFromNav(page, 'Orders');
      await page.getByRole('link', { name: String(orderNumber) }).click();
      await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeFocused();
      await expect(page.getByText('This refund is sent through the payment provider')).toBeVisible();
      await expectNoAxeViolations(page);

      await page.getByLabel('Amount (£)').fill('5.00');
      await page.getByLabel('Reason', { exact: true }).fill('One arrived scratched');
      await page.getByRole('button', { name: 'Refund through the provider' }).click();
      await page.getByRole('button', { name: /^Yes, refund £/ }).click();
      await expect(page.getByText('Refunded through the provider.')).toBeVisible();
      await expect(page.getByRole('row', { name: /^Refunded -£/ })).toContainText('-£5.00');

      const left =
        (await page.getByText(/Up to £[\d.,]+ is left to refund/).innerText()).match(/£([\d.,]+)/)?.[1] ?? '';
      await page.getByLabel('Amount (£)').fill(left);
      await page.getByLabel('Reason', { exact: true }).fill('Returned');
      await page.getByRole('button', { name: 'Refund through the provider' }).click();
      await page.getByRole('button', { name: /^Yes, refund £/ }).click();
      await expect(page.getByRole('heading', { name: 'Refund', exact: true })).toHaveCount(0);
      await expect(page.getByText(/opayo, \{[0-9A-F-]{36}\}/)).toHaveCount(2);

      await page.goto('/sandbox/opayo/activity');
      await expect(
        page.getByRole('row', { name: new RegExp(`Refund .* Order ${orderNumber} -£5\\.00`) }),
      ).toBeVisible();
      await expect(
        page.getByRole('row', { name: new RegExp(`Refund .* Order ${orderNumber} -£${left.replace('.', '\\.')}`) }),
      ).toBeVisible();
    });
  });

  test('a deep link while signed out goes through sign-in and back', async ({ page }) => {
    await page.goto('/admin/orders?status=paid');
    await expect(page).toHaveURL(/\/admin\/sign-in\?next=%2Forders%3Fstatus%3Dpaid$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the back office' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Please enter your e-mail address')).toBeVisible();
  });
});
