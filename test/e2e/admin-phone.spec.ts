import type { Locator, Page } from '@playwright/test';
import { expect, expectNoAxeViolations, paidOrder, test } from './fixtures.ts';
import { createOwner, setPassword, signIn } from './staff-pages.ts';

const PHONE = { width: 390, height: 844 };
const DESK = { width: 1280, height: 900 };

/** How far the page reaches past the screen's right edge (0: nothing to pan to sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** The page's main action, scrolled to: on the screen, whole, and not under anything else. */
async function expectReachable(action: Locator) {
  await action.scrollIntoViewIfNeeded();
  const box = (await action.boundingBox())!;
  expect(box.x).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
  await action.click({ trial: true });
}

test.describe('the back office on a phone', () => {
  test.use({ viewport: PHONE, isMobile: true, hasTouch: true, allowConsoleErrors: [/status of 401/] });

  test('every page fits a 390 px screen with long data, its main action within reach, the menu folded', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = Date.now();
    const ownerEmail = `owner.with-a-rather-long-address.phone.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);

    // Mridangam: a type no other browser test buys. A long e-mail address, as real ones can be.
    const shopper = await browser.newContext();
    const shopperEmail = `kavya.a-rather-long-address-for-a-phone.${stamp}@example-with-a-long-domain.co.uk`;
    const { orderNumber, product } = await paidOrder(
      await shopper.newPage(),
      'TR21 0PP',
      shopperEmail,
      undefined,
      2011,
    );
    await shopper.close();
    const products = (await (
      await page.request.get(`/api/admin/products?q=${encodeURIComponent(product.title)}`)
    ).json()) as {
      products: Array<{ id: number }>;
    };
    const productId = products.products[0]!.id;
    const stock = (await (
      await page.request.get(`/api/admin/stock?q=${encodeURIComponent(product.title)}`)
    ).json()) as {
      rows: Array<{ stockId: number }>;
    };
    const stockId = stock.rows[0]!.stockId;

    // The menu folds behind one button; it opens, takes staff to a page, and closes again.
    await page.goto('/admin');
    const nav = page.getByRole('navigation', { name: 'Back office' });
    const menu = page.getByRole('button', { name: 'Menu' });
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expectNoAxeViolations(page);
    await nav.getByRole('link', { name: 'Orders' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
    await expect(nav).toBeHidden();

    const button = (name: string | RegExp) => (main: Locator) => main.getByRole('button', { name }).first();
    const link = (name: string | RegExp) => (main: Locator) => main.getByRole('link', { name }).first();
    const pages: Array<[path: string, heading: string | RegExp, action: (main: Locator) => Locator]> = [
      ['/admin', 'Dashboard', link('All orders to dispatch')],
      ['/admin/orders', 'Orders', button('Find orders')],
      [`/admin/orders/${orderNumber}`, `Order ${orderNumber}`, button(/^Dispatch/)],
      ['/admin/labels', 'Shipping labels', (main) => main.getByRole('checkbox', { name: 'Choose every order' })],
      ['/admin/returns', 'Returns', button('Refused and refunded')],
      ['/admin/documents', 'Documents', button('Download PDF')],
      ['/admin/customers', 'Customers', button('Find customers')],
      ['/admin/products', 'Products', link('Add a product')],
      ['/admin/products/new', 'New product', button('Add the product')],
      [`/admin/products/${productId}`, product.title, button('Save the product')],
      [`/admin/products/${productId}/photos`, /^Photos of /, (main) => main.getByText('Add photos', { exact: true })],
      ['/admin/products/csv', 'Products as CSV', button('Preview the import')],
      ['/admin/types-and-brands', 'Types and brands', button('Add the type')],
      ['/admin/stock', 'Stock', button('Find sizes')],
      ['/admin/packaging', 'Packaging', button('New packaging')],
      [`/admin/stock/${stockId}`, /^Stock: /, button('Apply adjustment')],
      ['/admin/vouchers', 'Vouchers', link('New voucher')],
      ['/admin/vouchers/new', 'New voucher', button(/^(Save|Create|Add)/)],
      ['/admin/delivery', 'Delivery', button('New delivery method')],
      ['/admin/audit', 'Audit log', (main) => main.getByLabel('Show actions on')],
      ['/admin/account', 'My account', button('Sign out everywhere')],
      ['/admin/staff', 'Staff', button(/^Add/)],
      ['/admin/roles', 'Roles', button('Add the role')],
      ['/admin/settings', 'Settings', button('Save settings')],
    ];
    for (const [path, heading, action] of pages) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect({ path, overflow: await overflow(page) }).toEqual({ path, overflow: 0 });
      await expectReachable(action(page.getByRole('main')));
      await expectNoAxeViolations(page);
    }

    // The role editor: each permission's words stand under its name across the form, not squeezed
    // into a narrow third column beside it.
    await page.goto('/admin/roles');
    const newRole = page.getByRole('form', { name: 'New role' });
    const refund = newRole.getByText('Refund', { exact: true });
    const refundHint = newRole.getByText(/^See orders; refund them/);
    // Measured once drawn: a box is not waited for (in CI the page was still loading its roles).
    await expect(refundHint).toBeVisible();
    await expect(refund).toBeVisible();
    const [name, hint, form] = await Promise.all([
      refund.boundingBox(),
      refundHint.boundingBox(),
      newRole.boundingBox(),
    ]);
    expect(hint!.y).toBeGreaterThanOrEqual(name!.y + name!.height - 1);
    expect(hint!.width).toBeGreaterThan(form!.width * 0.6);

    // A customer's page, reached as staff reach it: found by a long address.
    await page.goto('/admin/customers');
    await page.getByLabel('Search').fill(shopperEmail);
    await page.getByRole('button', { name: 'Find customers' }).click();
    await page.getByRole('main').getByRole('link', { name: 'Meera Joshi' }).first().click();
    await page.waitForLoadState('networkidle');
    expect(await overflow(page)).toBe(0);
    await expectNoAxeViolations(page);

    // An order reads what may be done first: the dispatch form comes before the lines, and each
    // line stands as a card of labelled values rather than running off the screen.
    await page.goto(`/admin/orders/${orderNumber}`);
    const actions = page.getByRole('heading', { level: 2, name: 'Actions', exact: true });
    const lines = page.getByRole('heading', { level: 2, name: 'Lines', exact: true });
    await expect(actions).toBeVisible();
    expect((await actions.boundingBox())!.y).toBeLessThan((await lines.boundingBox())!.y);
    await expect(page.getByRole('cell', { name: product.title }).first()).toHaveAttribute('data-label', 'Product');
  });

  test.describe('on a wide screen', () => {
    test.use({ viewport: DESK, isMobile: false, hasTouch: false });

    test('the menu stays open as a bar and an order’s actions stand beside it', async ({ page, browser }) => {
      const stamp = Date.now();
      const ownerEmail = `owner.desk.${stamp}@example.com`;
      await setPassword(page, createOwner(ownerEmail));
      await signIn(page, ownerEmail);
      const shopper = await browser.newContext();
      const { orderNumber } = await paidOrder(
        await shopper.newPage(),
        'TR21 0PQ',
        `desk.${stamp}@example.com`,
        undefined,
        2011,
      );
      await shopper.close();

      await page.goto(`/admin/orders/${orderNumber}`);
      await expect(page.getByRole('navigation', { name: 'Back office' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Menu' })).toBeHidden();
      const actions = page.getByRole('heading', { level: 2, name: 'Actions', exact: true });
      const lines = page.getByRole('heading', { level: 2, name: 'Lines', exact: true });
      await expect(lines).toBeVisible();
      expect((await actions.boundingBox())!.x).toBeGreaterThan((await lines.boundingBox())!.x + 300);
      expect(await overflow(page)).toBe(0);
      await expectNoAxeViolations(page);
    });
  });
});
