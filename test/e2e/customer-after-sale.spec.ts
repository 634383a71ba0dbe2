import type { Page } from '@playwright/test';
import { openDatabase } from '../../src/server/db/database.ts';
import { plainText } from '../../src/server/mail/eml.ts';
import { readOutbox } from '../helpers/outbox.ts';
import { apiPost, expect, expectNoAxeViolations, expectTapTargets, opayoShop, paidOrderOf, test } from './fixtures.ts';
import { databaseFor, outboxFor } from './outbox-path.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';

/**
 * The customer's side after the sale (issue 36's acceptance): a guest opens the order page from
 * the link in their confirmation e-mail, downloads the invoice, cancels one line before dispatch
 * and is e-mailed the refund; after dispatch another guest asks to return a line, staff authorise,
 * receive and refund it, and the shopper sees each step on the order page and in e-mails; a
 * made-to-order product is not offered back for a change of mind. axe finds nothing on the way.
 */

const port = Number(process.env.E2E_PORT ?? 3555);
/** A card the Opayo sandbox takes. */
const CARD = '4929000000006';

/** What was e-mailed to `email` by the shop on `shopPort` (the Opayo shop is port + 1). */
const mailTo = (email: string, shopPort = port) => readOutbox(outboxFor(shopPort)).filter((mail) => mail.to === email);

/** The order page's link in the shopper's confirmation e-mail, once it has been sent. */
async function orderLinkFromOutbox(email: string, orderNumber: number, shopPort = port): Promise<string> {
  let link = '';
  await expect
    .poll(() => {
      const confirmation = mailTo(email, shopPort).find((mail) => mail.subject.includes(`${orderNumber} is confirmed`));
      link = confirmation ? (/https?:\/\/[^\s<>"]+\/order\/[\w.-]+/.exec(plainText(confirmation.raw))?.[0] ?? '') : '';
      return link;
    })
    .toMatch(new RegExp(`/order/${orderNumber}\\.`));
  return new URL(link).pathname;
}

async function markMadeToOrder(productTitle: string): Promise<void> {
  const db = openDatabase(`sqlite:${databaseFor(port)}`);
  try {
    await db.kysely.updateTable('products').set({ made_to_order: 1 }).where('title', '=', productTitle).execute();
  } finally {
    await db.destroy();
  }
}

async function openOrderPage(page: Page, path: string, orderNumber: number) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeVisible();
}

test.describe("the customer's side after the sale", () => {
  test.use({ allowConsoleErrors: [/status of 40[14]/] });

  // A cancellation is refunded through the provider at once: the shop that takes cards by Opayo.
  test.describe('on the shop that takes cards through Opayo', () => {
    test.use({ baseURL: opayoShop });

    test('a guest cancels one line before dispatch from the order link, and is e-mailed the refund', async ({
      page,
    }) => {
      test.slow();
      const email = `guest.cancels.${Date.now()}@example.com`;
      // A Tanpura and a Sarangi: types no other browser test buys.
      const { lines, orderNumber } = await paidOrderOf(
        page,
        'TR19 6AB',
        email,
        [
          { typeId: 2020, quantity: 1 },
          { typeId: 2022, quantity: 1 },
        ],
        CARD,
      );
      const path = await orderLinkFromOutbox(email, orderNumber, port + 1);
      await openOrderPage(page, path, orderNumber);
      await expectNoAxeViolations(page);

      const invoice = page.getByRole('link', { name: /Download the VAT invoice/ });
      const pdf = await page.request.get((await invoice.getAttribute('href'))!);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()['content-type']).toContain('application/pdf');

      const cancel = page.getByRole('region', { name: 'Cancel your order' });
      await cancel.getByRole('radio', { name: 'Some items' }).check();
      const second = lines[1]!;
      await cancel
        .getByLabel(`${second.product.title} (${second.stock.productSizeName}): units to cancel`)
        .selectOption('1');
      await expectTapTargets(page);
      await cancel.getByRole('button', { name: 'Continue' }).click();
      await expect(cancel.getByRole('heading', { name: 'Cancel these items?' })).toBeFocused();
      await expectNoAxeViolations(page);
      await cancel.getByRole('button', { name: /^Cancel and refund £/ }).click();
      await expect(cancel.getByRole('heading', { name: 'Items cancelled' })).toBeVisible();
      await expectNoAxeViolations(page);

      // The page, asked again, shows the refund; the shopper is e-mailed once: the refund, naming
      // the cancellation, not a cancellation e-mail as well.
      await expect(page.getByTestId('order-payment')).toHaveText('Paid, partly refunded');
      await expect
        .poll(() => mailTo(email, port + 1).map((mail) => mail.subject))
        .toEqual(expect.arrayContaining([`Your refund for order ${orderNumber}`]));
      expect(
        mailTo(email, port + 1).filter((mail) => /cancel|refund/i.test(mail.subject)),
        'one e-mail for the cancellation',
      ).toHaveLength(1);
      const refund = mailTo(email, port + 1).find((mail) => mail.subject === `Your refund for order ${orderNumber}`)!;
      expect(plainText(refund.raw)).toContain('Items cancelled by the customer');
    });
  });

  test('after dispatch a guest asks to return a line; staff authorise, receive and refund it; the shopper sees each step', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = Date.now();
    const ownerEmail = `owner.customer-returns.${stamp}@example.com`;
    const email = `guest.returns.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);

    const shopper = await browser.newContext();
    const shopperPage = await shopper.newPage();
    // A Shehnai to send back, and a percussion piece made to order.
    const { lines, orderNumber } = await paidOrderOf(shopperPage, 'TR20 8CD', email, [
      { typeId: 2027, quantity: 1 },
      { typeId: 2009, quantity: 1 },
    ]);
    await markMadeToOrder(lines[1]!.product.title);
    const sent = await apiPost(page, `/api/admin/orders/${orderNumber}/dispatch`, {
      untracked: { service: 'Royal Mail 1st Class' },
    });
    expect(sent.status()).toBe(200);

    const path = await orderLinkFromOutbox(email, orderNumber);
    await openOrderPage(shopperPage, path, orderNumber);
    const returns = shopperPage.getByRole('region', { name: 'Returns' });
    const form = returns.getByRole('form', { name: 'Request a return' });
    await expect(form).toContainText('Made to order: it cannot be returned if you changed your mind.');
    await expectNoAxeViolations(shopperPage);
    await expectTapTargets(shopperPage);

    // A change of mind about the made-to-order piece is refused, naming why.
    const madeToOrder = lines[1]!;
    await form.getByLabel(new RegExp(`^${madeToOrder.product.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)).fill('1');
    await form.getByLabel('Why are you returning it?').selectOption('changed_mind');
    await form.getByRole('button', { name: 'REQUEST RETURN' }).click();
    await expect(form.getByText(/is made to order: it cannot be returned because you changed your mind/)).toBeVisible();

    // The Shehnai goes back for a change of mind.
    const shehnai = lines[0]!;
    await form.getByLabel(new RegExp(`^${madeToOrder.product.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)).fill('0');
    await form.getByLabel(new RegExp(`^${shehnai.product.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`)).fill('1');
    await form.getByLabel('Anything we should know? (optional)').fill('Too loud for the flat');
    await form.getByRole('button', { name: 'REQUEST RETURN' }).click();
    const ra = `RA-${orderNumber}-1`;
    await expect(returns).toContainText(`${ra}: Requested`);
    await expectNoAxeViolations(shopperPage);

    await openFromNav(page, 'Returns');
    const card = page.getByRole('region', { name: new RegExp(`^${ra}:`) });
    await expect(card).toContainText('Too loud for the flat');
    await card.getByRole('button', { name: `Authorise ${ra}` }).click();
    await expect(card.getByRole('heading', { name: `${ra}: Authorised: please send it back` })).toBeVisible();
    await shopperPage.reload();
    await expect(returns).toContainText(`${ra}: Authorised: please send it back`);

    await card.getByRole('button', { name: `Receive ${ra}` }).click();
    await expect(card.getByRole('heading', { name: `${ra}: Received` })).toBeVisible();
    await shopperPage.reload();
    await expect(returns).toContainText(`${ra}: Received`);

    await card.getByRole('button', { name: `Refund ${ra}` }).click();
    await expect(card).toHaveCount(0);
    await shopperPage.reload();
    await expect(returns).toContainText(`${ra}: Refunded`);
    await expect(shopperPage.getByTestId('order-payment')).toHaveText('Paid, partly refunded');
    await expect(shopperPage.getByRole('link', { name: /Download credit note/ })).toBeVisible();
    await expectNoAxeViolations(shopperPage);
    await shopper.close();

    await expect
      .poll(() => mailTo(email).map((mail) => mail.subject))
      .toEqual(
        expect.arrayContaining([
          `We have your return request ${ra} for order ${orderNumber}`,
          `Return ${ra} authorised: how to send it back`,
          `We have received your return ${ra}`,
          `Your refund for order ${orderNumber}`,
        ]),
      );
    // The refund's e-mail names the return: one message, not a refund e-mail and a return e-mail.
    expect(mailTo(email).filter((mail) => /refund/i.test(mail.subject))).toHaveLength(1);
    expect(plainText(mailTo(email).find((mail) => /refund/i.test(mail.subject))!.raw)).toContain(`Return ${ra}`);
  });
});
