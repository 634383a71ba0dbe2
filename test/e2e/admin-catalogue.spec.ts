import type { Page } from '@playwright/test';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { picture } from './pictures.ts';

/** The storefront's search page for a keyword, as a shopper types it. */
async function searchShop(shop: Page, keyword: string) {
  await shop.goto('/search');
  await shop.getByRole('searchbox', { name: 'Search products' }).fill(keyword);
  await shop.getByRole('searchbox', { name: 'Search products' }).press('Enter');
}

/** A guest checkout of what is in the basket, paid in the PayPal sandbox. */
async function checkOutAsGuest(shop: Page) {
  await shop.goto('/shoppingcart');
  await shop.getByRole('button', { name: 'PROCEED TO CHECKOUT' }).click();
  await expect(shop).toHaveURL(/\/checkout-details$/);
  await shop.getByLabel('Title').selectOption({ label: 'MR' });
  await shop.getByLabel('Email').fill('dev.catalogue@example.com');
  await shop.getByLabel('First Name').fill('Dev');
  await shop.getByLabel('Last Name').fill('Sharma');
  await shop.getByLabel('Contact Number').fill('0121 496 0002');
  await shop.getByLabel('Address Line 1').fill('3 Market Street');
  await shop.getByLabel('Post Code').fill('B70 7NJ');
  await shop.getByLabel('Town / City').fill('West Bromwich');
  await shop.getByLabel('Country').selectOption({ label: 'United Kingdom' });
  await shop.getByRole('button', { name: 'NEXT' }).click();
  await expect(shop).toHaveURL(/\/checkout-delivery$/);
  await shop.getByLabel('Same as Billing Address').check();
  await shop.getByRole('button', { name: 'Confirm Address' }).click();
  await shop.getByLabel(/Express delivery/).check();
  await shop.getByRole('button', { name: 'Continue' }).click();
  await expect(shop).toHaveURL(/\/checkout-review$/);
  await shop.getByRole('button', { name: /SECURE CHECKOUT/ }).click();
  await shop.getByRole('button', { name: /^Pay £/ }).click();
  await expect(shop.getByRole('heading', { name: 'ORDER COMPLETE' })).toBeVisible();
}

test.describe('the catalogue in the back office', () => {
  // Signed out, the app asks who is signed in (401).
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('staff add a product with two sizes and three photos, publish it, a shopper finds and buys it, then it is archived and gone', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = `k${Date.now().toString(36)}`;
    const title = `Kesar Dholak ${stamp}`;
    const email = `catalogue.${stamp}@example.com`;
    await setPassword(page, createOwner(email));
    await signIn(page, email);

    // A new product: its URL key follows the title; two sizes, each with its opening stock.
    await openFromNav(page, 'Products');
    await page.getByRole('link', { name: 'Add a product' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeFocused();
    await expect(page.getByRole('region', { name: 'Photos' })).toContainText('once the product is saved');
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Add the product' }).click();
    await expect(page.getByText('Please enter a title')).toBeVisible();
    await expect(page.getByText('Please choose a type')).toBeVisible();
    await expectNoAxeViolations(page);

    await page.getByLabel('Title', { exact: true }).fill(title);
    await expect(page.getByLabel('URL key', { exact: true })).toHaveValue(`kesar-dholak-${stamp}`);
    await page.getByLabel('Type', { exact: true }).selectOption({ label: 'Drums › Dholaks' });
    await page.getByLabel('Brand', { exact: true }).selectOption({ label: 'Punjab Dhol House' });
    await page
      .getByLabel('Description', { exact: true })
      .fill('Sheesham shell with a rope-tuned goatskin bass head.\nPlayed at weddings.');
    await page.getByLabel('Search tags', { exact: true }).fill('wedding sangeet');
    await page.getByLabel('Size 1: name').fill('Standard');
    await page.getByLabel('Size 1: price (£)').fill('89.00');
    await page.getByLabel('Size 1: stock').fill('6');
    await page.getByRole('button', { name: 'Add a size or style' }).click();
    await page.getByLabel('Size 2: name').fill('Concert');
    await page.getByLabel('Size 2: price (£)').fill('120');
    await page.getByLabel('Size 2: reduction (%)').fill('25');
    await page.getByLabel('Size 2: stock').fill('3');
    await expect(page.getByText('Sells at £90.00')).toBeVisible();
    await page.getByLabel('Status', { exact: true }).selectOption('published');
    await page.getByRole('button', { name: 'Add the product' }).click();
    await expect(page.getByText(`Saved. "${title}" is published.`)).toBeVisible();
    await expect(page).toHaveURL(/\/admin\/products\/\d+$/);
    await expect(page.getByText('In stock: 6')).toBeVisible();
    await expect(page.getByRole('cell', { name: /product\.create/i })).toBeVisible();
    await expectNoAxeViolations(page);

    // Three photos, uploaded from the product's page: the first is its main image.
    await page.getByRole('link', { name: 'Add photos' }).click();
    await page.getByLabel('Add photos').setInputFiles([
      { name: 'front.jpg', mimeType: 'image/jpeg', buffer: await picture('jpeg', 1600, 1200, '#8b4513') },
      { name: 'side.png', mimeType: 'image/png', buffer: await picture('png', 900, 900, '#2e6b4f') },
      { name: 'heads.webp', mimeType: 'image/webp', buffer: await picture('webp', 800, 600, '#5b3a8c') },
    ]);
    const photos = page.getByRole('list', { name: 'Photos, main image first' }).getByRole('listitem');
    await expect(photos).toHaveCount(3);
    await expect(photos.nth(0)).toContainText('1600 × 1200, JPEG');
    await page.goBack();
    await expect(page.getByRole('img', { name: `Photo 3 of ${title}` })).toBeVisible();

    // A shopper finds it by a word of its title and buys the concert size.
    const shopper = await browser.newContext();
    const shop = await shopper.newPage();
    await searchShop(shop, stamp);
    const card = shop.getByRole('article', { name: title });
    await expect(card).toBeVisible();
    // The card shows the main photo, as a responsive picture.
    await expect(card.locator('img')).toHaveAttribute('srcset', /\/images\/photos\/[0-9a-f]{32}-320\.webp 320w/);
    await card.getByRole('link', { name: title }).click();
    await expect(shop.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await shop.getByLabel('STYLE/SIZE').selectOption({ label: 'Concert - £90.00' });
    await shop.getByRole('button', { name: 'ADD TO BASKET' }).click();
    await expect(shop.getByText('Product added to Basket!')).toBeVisible();
    await checkOutAsGuest(shop);

    // Staff see the sale on the product (one fewer in stock), then archive it from the list.
    await openFromNav(page, 'Products');
    await page.getByRole('searchbox', { name: 'Title' }).fill(stamp);
    await page.getByRole('button', { name: 'Find products' }).click();
    const row = page.getByRole('row', { name: new RegExp(title) });
    await expect(row.getByRole('cell', { name: '8', exact: true })).toBeVisible();
    await row.getByRole('button', { name: `Archive ${title}` }).click();
    await expect(page.getByText(`"${title}" is archived now.`)).toBeVisible();
    await expect(row.getByText('Archived')).toBeVisible();
    await expectNoAxeViolations(page);

    // Gone from the shop: search finds nothing, and its page sends the shopper to search.
    await searchShop(shop, stamp);
    await expect(shop.getByText('No products match. Try fewer filters or another word.')).toBeVisible();
    await expect(shop.getByRole('article', { name: title })).toHaveCount(0);
    await shop.goto(`/products/kesar-dholak-${stamp}`);
    await expect(shop).toHaveURL(/\/search$/);
    await shopper.close();
  });

  test.describe('types and brands', () => {
    // Deleting a type in use is answered 409, which the browser logs.
    test.use({ allowConsoleErrors: [/status of (401|409)/] });

    test('staff add a type inside another and a brand; the storefront menu shows the type; one in use is not deleted', async ({
      page,
    }) => {
      // The page lists every type with its own controls: axe takes a while over it.
      test.slow();
      const stamp = `t${Date.now().toString(36)}`;
      const email = `types.${stamp}@example.com`;
      await setPassword(page, createOwner(email));
      await signIn(page, email);
      await openFromNav(page, 'Types and brands');

      await page.getByLabel('Type name').fill(`Naal ${stamp}`);
      // Inside a type no other browser test lists the children of (the search test counts Drums').
      await page.getByLabel('Goes', { exact: true }).selectOption({ label: 'Inside Wind Instruments' });
      await page.getByRole('button', { name: 'Add the type' }).click();
      await expect(page.getByText(`Added "Naal ${stamp}".`)).toBeVisible();
      await page.getByLabel('Brand name').fill(`Amritsar ${stamp}`);
      await page.getByRole('button', { name: 'Add the brand' }).click();
      await expect(page.getByText(`Added "Amritsar ${stamp}".`)).toBeVisible();
      await expectNoAxeViolations(page);

      // Dhols have products: deleting the type is refused, saying how many.
      await page.getByRole('button', { name: 'Delete Dhols', exact: true }).click();
      await expect(page.getByRole('alert')).toContainText(/"Dhols" is the type of \d+ products/);

      const shop = await page.context().newPage();
      await shop.goto('/home');
      await shop.getByRole('button', { name: /PRODUCTS/ }).click();
      await expect(shop.getByRole('link', { name: `Naal ${stamp}` })).toBeVisible();
      await shop.close();
    });
  });
});
