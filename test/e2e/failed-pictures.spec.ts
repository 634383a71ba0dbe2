import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { openDatabase } from '../../src/server/db/database.ts';
import { catalogFactory } from '../helpers/catalog-factory.ts';
import { apiPost, expect, expectNoAxeViolations, expectNoAxeViolationsWithoutScripts, test } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';

/**
 * Pictures that fail to load hide themselves (spec 2.4; issue 32, item 7) on the pages the server
 * draws, before any script has run and where none runs at all, as in the pages the app draws: no
 * broken-image icon, frame or alternative text shows where the picture would be.
 */

const port = Number(process.env.E2E_PORT ?? 3555);

/** axe as this test's browser can run it. */
const checkAxe = (page: Page, javaScriptEnabled: boolean) =>
  javaScriptEnabled ? expectNoAxeViolations(page) : expectNoAxeViolationsWithoutScripts(page);

/**
 * A product of its own whose two pictures are not there (the server answers 404 for each). Of a type
 * no home section shows and no other test opens, and not named for one (a tabla here was the first
 * result of another test's "tabal" search, whose page then reported the 404s).
 */
async function productWithMissingPictures() {
  const title = `Missing Picture Tuning Kit ${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;
  const db = openDatabase(`sqlite:${databaseFor(port)}`);
  try {
    return await catalogFactory(db).product({
      typeId: 2032,
      brandId: 1,
      title,
      stocks: [{ sizeName: 'C#', price: 18999, stock: 5 }],
      images: ['/images/products/no-such-picture-1.svg', '/images/products/no-such-picture-2.svg'],
    });
  } finally {
    await db.destroy();
  }
}

/**
 * Until every picture shown in `scope` has loaded or failed (a picture the app took out, or one in
 * the closed full-size overlay, is not waited for).
 */
async function picturesSettled(scope: Locator) {
  await expect
    .poll(() =>
      scope
        .locator('img')
        .evaluateAll((images) => images.every((img) => !img.checkVisibility() || (img as HTMLImageElement).complete)),
    )
    .toBe(true);
}

/**
 * Where a picture would be shows nothing but its backdrop: every pixel inside the box one colour.
 * The box is taken inside its border, and inside its rounded corners across, where the page shows
 * through (a broken picture's frame runs along its edges, its icon and text start at its top left).
 */
async function expectBlank(page: Page, box: Locator, name: string) {
  await box.scrollIntoViewIfNeeded();
  const shape = await box.evaluate((element) => {
    const style = getComputedStyle(element);
    const card = element.closest('article');
    const rect = element.getBoundingClientRect();
    const radius = Math.max(
      parseFloat(style.borderTopLeftRadius),
      card ? parseFloat(getComputedStyle(card).borderTopLeftRadius) : 0,
    );
    const border = parseFloat(style.borderTopWidth);
    return { x: rect.x, y: rect.y, width: rect.width, height: rect.height, radius, border };
  });
  const clip = {
    x: shape.x + shape.radius,
    y: shape.y + shape.border,
    width: shape.width - 2 * shape.radius,
    height: shape.height - 2 * shape.border,
  };
  const { channels } = await sharp(await page.screenshot({ clip })).stats();
  expect(
    channels.map((channel) => channel.max - channel.min),
    `${name}: the colours in its box differ`,
  ).toEqual(channels.map(() => 0));
}

for (const javaScriptEnabled of [false, true]) {
  test.describe(javaScriptEnabled ? 'with JavaScript' : 'without JavaScript', () => {
    test.use({ javaScriptEnabled, allowConsoleErrors: [/status of 404/] });

    test('pictures that fail to load hide on the product page and its card, drawn on the server', async ({ page }) => {
      const product = await productWithMissingPictures();
      await page.goto(`/products/${product.urlKey}`);
      await expect(page.getByRole('heading', { level: 1, name: product.title })).toBeVisible();
      const gallery = page.getByRole('button', { name: /^Enlarge picture 1 of / }).locator('..');
      await picturesSettled(gallery);
      await expectBlank(page, page.getByRole('button', { name: /^Enlarge picture 1 of / }), 'the main picture');
      await expectBlank(page, page.getByRole('button', { name: 'Show picture 2' }), 'the second thumbnail');
      // Once the app runs it takes them out, so a screen reader meets no picture that is not there,
      // even those that failed before it started. (Without it, a failed picture's text stands in.)
      if (javaScriptEnabled) await expect(page.getByRole('img', { name: product.title })).toHaveCount(0);
      await checkAxe(page, javaScriptEnabled);

      await expect
        .poll(async () => {
          const answer = await apiPost(page, '/api/search', { title: product.title });
          return ((await answer.json()) as { totalResults: number }).totalResults;
        })
        .toBeGreaterThan(0);
      await page.goto(`/search?k=${encodeURIComponent(product.title)}`);
      const card = page.getByRole('article', { name: product.title });
      await expect(card).toBeVisible();
      await picturesSettled(card);
      await expectBlank(page, card.locator('a[aria-hidden="true"]'), 'the card picture');
      await checkAxe(page, javaScriptEnabled);
    });
  });
}
