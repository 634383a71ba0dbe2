import { openDatabase } from '../../src/server/db/database.ts';
import { createOrderLinks } from '../../src/server/orders/order-links.ts';
import { plainText } from '../../src/server/mail/eml.ts';
import { readOutbox } from '../helpers/outbox.ts';
import { apiPost, expect, expectNoAxeViolations, paidOrderOf, test } from './fixtures.ts';
import { databaseFor, outboxFor } from './outbox-path.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';

/**
 * Returns in the back office (issue 36, item 5): a guest asks to return a dispatched item from the
 * order page's API; staff authorise it, receive it and refund it on the Returns page, and the
 * shopper is e-mailed at each step.
 */

const port = Number(process.env.E2E_PORT ?? 3555);

/** The key of the order page's link, signed with the shop's secret as the server signs it. */
async function orderPageKey(orderNumber: number): Promise<string> {
  const db = openDatabase(`sqlite:${databaseFor(port)}`);
  try {
    const { value } = await db.kysely
      .selectFrom('settings')
      .select('value')
      .where('name', '=', 'csrf_secret')
      .executeTakeFirstOrThrow();
    return createOrderLinks(value).keyOf(orderNumber, 1);
  } finally {
    await db.destroy();
  }
}

test.describe('returns', () => {
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('staff authorise, receive and refund a return; the shopper hears of each step', async ({ page, browser }) => {
    test.slow();
    const stamp = Date.now();
    const ownerEmail = `owner.returns.${stamp}@example.com`;
    const shopperEmail = `asha.returns.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);

    // A Santoor, a type no other browser test buys.
    const shopper = await browser.newContext();
    const shopperPage = await shopper.newPage();
    const { orderNumber } = await paidOrderOf(shopperPage, 'TR26 2RT', shopperEmail, [{ typeId: 2023, quantity: 1 }]);
    const sent = await apiPost(page, `/api/admin/orders/${orderNumber}/dispatch`, {
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(sent.status()).toBe(200);
    const { lines } = (await sent.json()) as { lines: Array<{ id: number }> };

    const key = await orderPageKey(orderNumber);
    const asked = await apiPost(shopperPage, `/api/order-page/${key}/returns`, {
      reason: 'changed_mind',
      note: 'It is bigger than I thought',
      lines: [{ orderLineId: lines[0]!.id, quantity: 1 }],
    });
    expect(asked.status()).toBe(201);
    const ra = `RA-${orderNumber}-1`;
    expect(((await asked.json()) as { raNumber: string }).raNumber).toBe(ra);
    await shopper.close();

    await openFromNav(page, 'Returns');
    const card = page.getByRole('region', { name: new RegExp(`^${ra}:`) });
    await expect(card).toContainText('It is bigger than I thought');
    await card.getByRole('button', { name: `Authorise ${ra}` }).click();
    await expect(card.getByRole('heading', { name: `${ra}: Authorised: please send it back` })).toBeVisible();
    await expectNoAxeViolations(page);

    await card.getByRole('button', { name: `Receive ${ra}` }).click();
    await expect(card.getByRole('heading', { name: `${ra}: Received` })).toBeVisible();
    await expect(card).toContainText('Refund due by');
    await expectNoAxeViolations(page);

    await card.getByLabel('Deduction for diminished value, from the goods only, £ (optional)').fill('1.00');
    await card.getByLabel('Why the value is diminished').fill('A scratch on the frame');
    await card.getByRole('button', { name: `Refund ${ra}` }).click();
    // Refunded, it leaves the open queue for the closed one.
    await expect(card).toHaveCount(0);
    await page.getByRole('button', { name: 'Refused and refunded' }).click();
    await expect(card.getByRole('heading', { name: `${ra}: Refunded` })).toBeVisible();
    await expect(card).toContainText('A scratch on the frame');
    await expectNoAxeViolations(page);

    const subjects = () =>
      readOutbox(outboxFor(port))
        .filter((m) => m.to === shopperEmail)
        .map((m) => m.subject);
    await expect
      .poll(subjects)
      .toEqual(
        expect.arrayContaining([
          `We have your return request ${ra} for order ${orderNumber}`,
          `Return ${ra} authorised: how to send it back`,
          `We have received your return ${ra}`,
          `Your refund for order ${orderNumber}`,
        ]),
      );
    // One e-mail for the refund, naming the return and the deduction.
    const refunds = readOutbox(outboxFor(port)).filter((m) => m.to === shopperEmail && /refund/i.test(m.subject));
    expect(refunds).toHaveLength(1);
    expect(plainText(refunds[0]!.raw)).toContain(`Return ${ra}; we deducted £1.00`);
  });
});
