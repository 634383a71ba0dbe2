import { readFile } from 'node:fs/promises';
import type { Page } from '@playwright/test';
import { productCsvHeader } from '../../src/contract/admin/products-csv.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

/**
 * Products as CSV in the back office (docs/back-office.md#csv-import-and-export):
 * a file with one bad row is previewed with its error and nothing is applied; the
 * corrected file is applied, and the shop's search finds the product. Changing a delivery rate and
 * seeing it at checkout is admin-stock.spec.ts's.
 */

function csvOf(rows: Array<Record<string, string>>): string {
  return [productCsvHeader, ...rows.map((row) => productCsvHeader.map((name) => row[name] ?? ''))]
    .map((cells) => cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(','))
    .join('\r\n');
}

async function chooseFile(page: Page, csv: string) {
  await page
    .getByLabel('CSV file')
    .setInputFiles({ name: 'products.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Preview the import' }).click();
}

/** What the shop's search finds for a word, as a shopper types it. */
async function shopSearch(shop: Page, keyword: string) {
  await shop.goto('/search');
  await shop.getByRole('searchbox', { name: 'Search products' }).fill(keyword);
  await shop.getByRole('searchbox', { name: 'Search products' }).press('Enter');
}

test.describe('products as CSV in the back office', () => {
  // Signed out, the back office asks who is signed in (401).
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('an owner imports a file with a bad row (error shown, nothing applied), corrects it and applies it; the shop finds the product', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = `v${Date.now().toString(36)}`;
    const email = `csv.owner.${stamp}@example.com`;
    await setPassword(page, createOwner(email));
    await signIn(page, email);
    await openFromNav(page, 'Products');
    await page.getByRole('link', { name: 'Import or export CSV' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Products as CSV' })).toBeFocused();
    await expectNoAxeViolations(page);

    // Both products are new: "Stands" by its place in the tree; the second's price is not a price.
    const common = {
      Status: 'published',
      Type: 'Accessories > Stands',
      Brand: 'Jaipur Craft Co.',
      Description: 'Folding teak stand for a harmonium or a pair of tablas.',
      'Reduction (%)': '0',
      Stock: '6',
    };
    const good = {
      ...common,
      'URL key': `teak-stand-${stamp}`,
      Title: `Teak Stand ${stamp}`,
      'Size or style': 'Standard',
      'Price (GBP)': '34.50',
    };
    const bad = {
      ...common,
      'URL key': `tall-teak-stand-${stamp}`,
      Title: `Tall Teak Stand ${stamp}`,
      'Size or style': 'Tall',
      'Price (GBP)': 'thirty',
    };
    await chooseFile(page, csvOf([good, bad]));
    await expect(page.getByRole('heading', { level: 3, name: 'Preview' })).toBeFocused();
    await expect(page.getByRole('alert')).toContainText('The file has 1 error');
    const errors = page.getByRole('table', { name: 'Errors' });
    await expect(errors.getByRole('row').nth(1).getByRole('cell')).toHaveText([
      '3',
      'Price (GBP)',
      'Write the price in pounds, e.g. 12.50',
    ]);
    await expect(page.getByRole('button', { name: 'Apply the import' })).toBeDisabled();
    await expectNoAxeViolations(page);

    // Nothing was applied: the shop does not know the good row's product either.
    const shopper = await browser.newContext();
    const shop = await shopper.newPage();
    await shopSearch(shop, stamp);
    await expect(shop.getByText('No products match. Try fewer filters or another word.')).toBeVisible();

    // Corrected, previewed again, applied.
    await chooseFile(page, csvOf([good, { ...bad, 'Price (GBP)': '42.00' }]));
    await expect(page.getByRole('heading', { level: 3, name: 'Preview' })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Ready to import' })).toContainText(
      '2 products to be created',
    );
    await expect(page.getByRole('table', { name: 'Changes' })).toContainText(`Tall Teak Stand ${stamp}`);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Apply the import' }).click();
    await expect(page.getByRole('heading', { level: 3, name: 'Imported' })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: 'Imported' })).toContainText('2 products created');
    await expectNoAxeViolations(page);

    await shopSearch(shop, stamp);
    await expect(shop.getByRole('article', { name: `Teak Stand ${stamp}`, exact: true })).toContainText('£34.50');
    await expect(shop.getByRole('article', { name: `Tall Teak Stand ${stamp}` })).toContainText('£42.00');

    // The export has them, a row per size, the price in pounds.
    const downloading = page.waitForEvent('download');
    await page.getByRole('link', { name: 'Download all products (CSV)' }).click();
    const exported = await readFile((await (await downloading).path()) as string, 'utf8');
    expect(exported).toContain(`teak-stand-${stamp},Teak Stand ${stamp},published,Accessories > Stands`);
    // Its parcel facts follow, blank as the file gave none.
    expect(exported).toMatch(new RegExp(`tall-teak-stand-${stamp},.*,Tall,42\\.00,0,6,,,,,\\r\\n`));
    await shopper.close();
  });
});
