import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { expect, expectNoAxeViolations, expectTapTargets, paidOrderOf, test } from './fixtures.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';
import type { LabelQueue } from '../../src/contract/admin/shipping.ts';

/**
 * Shipping labels (issue 38's browser acceptance): an owner chooses three paid orders, makes their
 * labels in Click & Drop (the shop's own sandbox here), downloads them as one PDF, and dispatches
 * them with their tracking numbers.
 */
test.describe('shipping labels', () => {
  // Signed out, the app asks who is signed in (401); Click & Drop down is played as a 502.
  test.use({ allowConsoleErrors: [/status of (401|502)/] });

  test('an owner makes labels for three orders, downloads them as one PDF and sees them dispatched with tracking', async ({
    page,
    browser,
  }) => {
    // A give-up bound, not a speed target: three checkouts and the back office on a busy 2-core machine.
    test.setTimeout(300_000);
    const stamp = Date.now();
    const ownerEmail = `owner.labels.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);

    // Three guests each pay for a tabla, a harmonium or a flute (types no other browser test buys),
    // sent by express: Royal Mail Tracked 24 in the demo shop.
    const shopper = await browser.newContext();
    const shopperPage = await shopper.newPage();
    const postcodes = ['LS1 4DY', 'M1 1AE', 'BS1 4DJ'];
    const orders: number[] = [];
    for (const [i, typeId] of [2035, 2017, 2026].entries()) {
      const { orderNumber } = await paidOrderOf(shopperPage, postcodes[i]!, `labels.${i}.${stamp}@example.com`, [
        { typeId, quantity: 1 },
      ]);
      orders.push(orderNumber);
    }
    await shopper.close();

    // A packaging preset, as an owner keeps them: named, measured and weighed empty; a bad size is named.
    await openFromNav(page, 'Packaging');
    await page.getByRole('button', { name: 'New packaging' }).click();
    const form = page.getByRole('form', { name: 'New packaging' });
    await form.getByLabel('Name').fill(`Tabla box ${stamp}`);
    await form.getByLabel('Length (mm)').fill('450');
    await form.getByLabel('Width (mm)').fill('0');
    await form.getByLabel('Height (mm)').fill('350');
    await form.getByLabel('Empty weight (g)').fill('900');
    await form.getByRole('button', { name: 'Save packaging' }).click();
    await expect(form.getByText('The width must be at least 1 mm')).toBeVisible();
    await expectNoAxeViolations(page);
    await form.getByLabel('Width (mm)').fill('450');
    await form.getByRole('button', { name: 'Save packaging' }).click();
    await expect(
      page.getByRole('row', { name: new RegExp(`Tabla box ${stamp} 450 × 450 × 350 mm 900 g`) }),
    ).toBeVisible();

    // The delivery list says which service each method's labels are bought for.
    await openFromNav(page, 'Delivery');
    await expect(page.getByRole('row', { name: /^Express/ }).first()).toContainText('Royal Mail Tracked 24');

    await openFromNav(page, 'Labels', 'Shipping labels');
    await expect(page.getByText(/shop's own Click & Drop sandbox/)).toBeVisible();
    const rowOf = (orderNumber: number) =>
      page.locator('tr', { has: page.getByRole('checkbox', { name: `Choose order ${orderNumber}`, exact: true }) });
    for (const orderNumber of orders) {
      await expect(rowOf(orderNumber)).toContainText('Royal Mail Tracked 24');
      await expect(rowOf(orderNumber)).toContainText('Not made yet.');
    }

    // One first, said in the singular; then all three (the first's label is not bought twice).
    await page.getByRole('checkbox', { name: `Choose order ${orders[0]}`, exact: true }).check();
    await page.getByRole('button', { name: 'Make labels' }).click();
    await expect(page.getByRole('status')).toHaveText('1 order has its label.');
    // The keyboard is left on what the action said, not thrown to the top of the page.
    await expect(page.locator('.adm-messages')).toBeFocused();
    await expectTapTargets(page);

    // Cancelled by mistake? One tap asks first; "Keep it" keeps it, "Yes" cancels it in Click & Drop.
    await page.getByRole('button', { name: `Cancel label of order ${orders[0]}` }).click();
    await expect(page.getByRole('button', { name: `Yes, cancel the label of order ${orders[0]}` })).toBeFocused();
    await page.getByRole('button', { name: `Keep it (order ${orders[0]})` }).click();
    await expect(rowOf(orders[0]!)).toContainText(/Ready: [A-Z]{2}\d{9}GB/);
    await page.getByRole('button', { name: `Cancel label of order ${orders[0]}` }).click();
    await page.getByRole('button', { name: `Yes, cancel the label of order ${orders[0]}` }).click();
    await expect(page.getByRole('status')).toHaveText(`The label of order ${orders[0]} is cancelled in Click & Drop.`);
    await expect(rowOf(orders[0]!)).toContainText('Cancelled: a new one can be made.');
    for (const orderNumber of orders.slice(1))
      await page.getByRole('checkbox', { name: `Choose order ${orderNumber}`, exact: true }).check();

    await page.getByRole('button', { name: 'Make labels' }).click();
    await expect(page.getByRole('status')).toHaveText('3 orders have labels.');
    const tracking: string[] = [];
    for (const orderNumber of orders) {
      await expect(rowOf(orderNumber)).toContainText(/Ready: [A-Z]{2}\d{9}GB/);
      tracking.push(/[A-Z]{2}\d{9}GB/.exec((await rowOf(orderNumber).textContent()) ?? '')![0]);
    }
    await expectNoAxeViolations(page);

    // On a phone, the actions stay in view as the list scrolls to the last order.
    const desk = page.viewportSize()!;
    await page.setViewportSize({ width: 390, height: 480 });
    await rowOf(orders[2]!).scrollIntoViewIfNeeded();
    await page.mouse.wheel(0, 2000);
    await expect(page.getByRole('heading', { level: 1, name: 'Shipping labels' })).not.toBeInViewport();
    await expect(page.getByRole('button', { name: 'Mark dispatched' })).toBeInViewport();
    await page.setViewportSize(desk);

    // One PDF, a label each, in the list's order, each with its address and tracking number.
    // Click & Drop down: the page says so, where a plain link's download was dropped without a word.
    await page.route('**/api/admin/labels.pdf*', (route) =>
      route.fulfill({
        status: 502,
        json: { error: { code: 'CARRIER_ERROR', message: 'Click & Drop: it did not answer.' } },
      }),
    );
    await page.getByRole('button', { name: 'Download 3 labels (PDF)' }).click();
    await expect(page.getByRole('alert')).toContainText('Click & Drop: it did not answer.');
    await expect(page.locator('.adm-messages')).toBeFocused();
    await page.unroute('**/api/admin/labels.pdf*');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download 3 labels (PDF)' }).click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = execFileSync('pdftotext', ['-layout', '-', '-'], { input: bytes }).toString('utf8');
    const pages = text.split('\f').filter((pageText) => pageText.trim() !== '');
    expect(pages).toHaveLength(3);
    for (const [i, number] of tracking.entries()) {
      expect(pages[i]).toContain(number);
      expect(pages[i]).toContain(postcodes[i]!);
    }

    // Printed in one go: each label followed by its order's packing slip.
    const [both] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Labels and packing slips (PDF)' }).click(),
    ]);
    const bothText = execFileSync('pdftotext', ['-layout', '-', '-'], { input: readFileSync((await both.path())!) })
      .toString('utf8')
      .split('\f')
      .filter((pageText) => pageText.trim() !== '');
    expect(bothText).toHaveLength(6);
    for (const [i, orderNumber] of orders.entries()) {
      expect(bothText[2 * i]).toContain(tracking[i]!);
      expect(bothText[2 * i + 1]).toContain(`Packing slip: order ${orderNumber}`);
    }

    await page.getByRole('button', { name: 'Mark dispatched' }).click();
    await expect(page.getByRole('status')).toHaveText('3 orders dispatched, their customers e-mailed.');
    for (const orderNumber of orders) await expect(rowOf(orderNumber)).toHaveCount(0);
    await expectNoAxeViolations(page);

    // Each order is dispatched, its parcel tracked by the label's number.
    for (const [i, orderNumber] of orders.entries()) {
      await page.goto(`/admin/orders/${orderNumber}`);
      await expect(page.getByRole('heading', { level: 1, name: new RegExp(`${orderNumber}`) })).toBeVisible();
      await expect(page.getByText(tracking[i]!).first()).toBeVisible();
      await expect(page.getByText('Dispatched', { exact: true }).first()).toBeVisible();
    }
  });

  test('each row says what its parcel holds and weighs; a refusal says when the address was changed since', async ({
    page,
    browser,
  }) => {
    // A give-up bound, not a speed target: a checkout and the back office on a busy 2-core machine.
    test.setTimeout(180_000);
    const stamp = Date.now();
    const ownerEmail = `owner.refused.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);

    // A guest pays for two of one thing and one of another, to a postcode Click & Drop refuses.
    const shopper = await browser.newContext();
    const { orderNumber, lines } = await paidOrderOf(
      await shopper.newPage(),
      'ZZ1 1ZZ',
      `refused.${stamp}@example.com`,
      [
        { typeId: 2030, quantity: 2 },
        { typeId: 2031, quantity: 1 },
      ],
    );
    await shopper.close();

    await openFromNav(page, 'Labels', 'Shipping labels');
    const row = page.locator('tr', {
      has: page.getByRole('checkbox', { name: `Choose order ${orderNumber}`, exact: true }),
    });
    // What the label would be bought for, as the API works it out (the units, each preset's box).
    const queue = (await (await page.request.get('/api/admin/labels')).json()) as LabelQueue;
    const parcel = queue.orders.find((entry) => entry.orderNumber === String(orderNumber))!.parcel!;
    const [first, second] = lines.map((line) => `${line.product.title} (${line.stock.productSizeName})`);
    const parcelCell = row.getByRole('cell').nth(4);
    await expect(parcelCell).toContainText(`2 × ${first}, 1 × ${second}`);
    await expect(parcelCell).toContainText(
      parcel.weightGrams < 1000 ? `${parcel.weightGrams} g` : `${parcel.weightGrams / 1000} kg`,
    );
    await expect(page.getByRole('columnheader', { name: 'Parcel' })).toBeVisible();

    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Make labels' }).click();
    await expect(page.getByRole('status')).toHaveText('0 orders have labels. 1 could not be: see its row.');
    const refusal = 'The postcode "ZZ1 1ZZ" is not a valid postcode for the United Kingdom.';
    await expect(row).toContainText(`Refused by Click & Drop: ${refusal} Correct the address`);

    // The owner corrects the postcode on the order's page.
    await row.getByRole('link', { name: "order's page" }).click();
    await page.getByRole('button', { name: 'Change delivery details…' }).click();
    const form = page.getByRole('form', { name: 'Change delivery details' });
    await form.getByLabel('Postcode').fill('LS1 4DY');
    await form.getByRole('button', { name: 'Save delivery details' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Delivery details changed.' })).toBeVisible();

    // Back on the labels page the old refusal no longer reads as the order's state.
    await openFromNav(page, 'Labels', 'Shipping labels');
    await expect(row).toContainText(
      `Refused before the address was changed: make the label again. Click & Drop had said: ${refusal}`,
    );
    await expect(row).not.toContainText('Correct the address');
    await expectNoAxeViolations(page);
    await expectTapTargets(page);

    await row.getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Make labels' }).click();
    await expect(page.getByRole('status')).toHaveText('1 order has its label.');
    await expect(row).toContainText(/Ready: [A-Z]{2}\d{9}GB/);
  });
});
