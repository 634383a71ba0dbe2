import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations, paidOrder, test } from './fixtures.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';

/** A document's address asked for with the page's own session (its cookies): it must be a PDF. */
async function expectPdfAt(page: Page, href: string | null) {
  expect(href).toBeTruthy();
  const answer = await page.request.get(href!);
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  expect((await answer.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

test.describe('invoices and credit notes in the back office', () => {
  // Signed out, the app asks who is signed in (401).
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('a paid order’s invoice, a refund’s credit note, and the accountant’s batch for today', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = Date.now();
    const ownerEmail = `owner.documents.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);

    // A shopper pays (Santoor: a type no other test buys, so no stock count is disturbed).
    const shopper = await browser.newContext();
    const { orderNumber } = await paidOrder(
      await shopper.newPage(),
      'TR20 8AB',
      `meera.documents.${stamp}@example.com`,
      undefined,
      2023,
    );
    await shopper.close();

    // The order's page links its invoice, opened beside the order; the link answers the PDF.
    await page.goto(`/admin/orders/${orderNumber}`);
    const documents = page.getByRole('region', { name: 'Documents' });
    const invoice = documents.getByRole('link', { name: /^Invoice INV-\d{6} \(PDF\)$/ });
    await expect(invoice).toBeVisible();
    await expect(invoice).toHaveAttribute('href', `/api/admin/orders/${orderNumber}/invoice`);
    await expect(invoice).toHaveAttribute('target', '_blank');
    await expectPdfAt(page, await invoice.getAttribute('href'));
    await expect(documents.getByRole('link', { name: /^Credit note/ })).toHaveCount(0);
    const slip = documents.getByRole('link', { name: 'Packing slip (PDF)' });
    await expect(slip).toHaveAttribute('href', `/api/admin/orders/${orderNumber}/packing-slip`);
    await expectPdfAt(page, await slip.getAttribute('href'));
    await expectNoAxeViolations(page);

    // A partial refund issues a credit note: it shows in the list at once, with its amount.
    await page.getByLabel('Amount (£)').fill('5.50');
    await page.getByLabel('Reason', { exact: true }).fill('A tuning key was missing');
    await page.getByRole('button', { name: 'Record refund' }).click();
    await page.getByRole('button', { name: /^Yes, record £/ }).click();
    await expect(page.getByText('Refund recorded.')).toBeVisible();
    const creditNote = documents.getByRole('link', { name: /^Credit note CN-\d{6} \(PDF\)$/ });
    await expect(creditNote).toBeVisible();
    await expect(documents.getByRole('listitem').filter({ hasText: /^Credit note/ })).toContainText('£5.50 refunded');
    await expectPdfAt(page, await creditNote.getAttribute('href'));
    await expectNoAxeViolations(page);

    // The batch: this month so far by default, downloaded as one PDF.
    await openFromNav(page, 'Documents');
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(new Date());
    await expect(page.getByLabel('From')).toHaveValue(`${today.slice(0, 8)}01`);
    await expect(page.getByLabel('To')).toHaveValue(today);
    await page.getByLabel('From').fill(today);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download PDF' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.pdf$/);
    expect(
      readFileSync(await download.path())
        .subarray(0, 5)
        .toString('latin1'),
    ).toBe('%PDF-');
    await expect(page.getByRole('status').filter({ hasText: 'Downloaded' })).toContainText('.pdf');

    // The packer's batch: a packing slip for every order waiting to be dispatched, this one's among them.
    const slips = page.getByRole('link', { name: 'Packing slips for every order waiting to be dispatched (PDF)' });
    await expect(slips).toHaveAttribute('target', '_blank');
    await expectPdfAt(page, await slips.getAttribute('href'));

    // A period that ends before it starts is refused at the To field.
    await page.getByLabel('To').fill(`${today.slice(0, 8)}01`);
    await page.getByLabel('From').fill('2099-12-31');
    await page.getByRole('button', { name: 'Download PDF' }).click();
    await expect(page.getByLabel('To')).toHaveAccessibleDescription(/The last day cannot be before the first./);
    await expectNoAxeViolations(page);
  });
});
