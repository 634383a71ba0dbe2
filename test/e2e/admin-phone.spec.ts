import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, paidOrder, test } from './fixtures.ts';
import { createOwner, setPassword, signIn } from './staff-pages.ts';

const PHONE = { width: 390, height: 844 };

/** How far the page reaches past the screen's right edge (0: nothing to pan to sideways). */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.describe('the back office on a phone', () => {
  test.use({ viewport: PHONE, allowConsoleErrors: [/status of 401/] });

  test('its wide tables scroll in their own boxes: no page is wider than the screen', async ({ page, browser }) => {
    test.slow();
    const stamp = Date.now();
    const ownerEmail = `owner.phone.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);

    // Mridangam: a type no other browser test buys.
    const shopper = await browser.newContext();
    const { orderNumber } = await paidOrder(
      await shopper.newPage(),
      'TR21 0PP',
      `kavya.a-rather-long-address.phone.${stamp}@example.com`,
      undefined,
      2011,
    );
    await shopper.close();

    for (const [path, heading] of [
      ['/admin/orders', 'Orders'],
      [`/admin/orders/${orderNumber}`, `Order ${orderNumber}`],
      ['/admin/customers', 'Customers'],
      ['/admin/delivery', 'Delivery'],
      ['/admin', 'Dashboard'],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect({ path, overflow: await overflow(page) }).toEqual({ path, overflow: 0 });
    }

    // The order reads first, then what may be done: the lines come before the dispatch form.
    await page.goto(`/admin/orders/${orderNumber}`);
    const lines = page.getByRole('heading', { level: 2, name: 'Lines', exact: true });
    const actions = page.getByRole('heading', { level: 2, name: 'Actions', exact: true });
    await expect(actions).toBeVisible();
    expect((await lines.boundingBox())!.y).toBeLessThan((await actions.boundingBox())!.y);
    // The totals stand under the line totals.
    const total = page.getByRole('row', { name: /^Total / }).getByRole('cell');
    const lineTotal = page.getByRole('columnheader', { name: 'Line total' });
    expect(Math.round((await total.boundingBox())!.x)).toBe(Math.round((await lineTotal.boundingBox())!.x));
    await expectNoAxeViolations(page);
  });
});
