import type { Page } from '@playwright/test';
import { productCardImageSizes } from '../../src/contract/photos.ts';
import { apiPost, expect, expectNoAxeViolations, productWithSizes, test } from './fixtures.ts';

/**
 * A product card's size options are read in full from tablet width up: at
 * 720 to 1023 px (the search page with and without its sidebar), at 1150 px (three columns beside
 * the sidebar) and on desktop. A phone opens its own full-width picker.
 */
for (const width of [720, 800, 900, 1023, 1150, 1366]) {
  test(`a product card shows its size options without cutting them off, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const product = await productWithSizes(page);
    await page.goto(`/search?k=${encodeURIComponent(product.title)}`);
    const card = page.getByRole('article', { name: product.title });
    await card.getByRole('button', { name: 'Add to cart' }).click();
    const select = card.getByLabel('Size / Style');
    await expect(select).toBeVisible();
    // The room the closed select gives its text, against the widest option's text in its own font.
    const fit = await select.evaluate((element) => {
      const box = element as HTMLSelectElement;
      const style = getComputedStyle(box);
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const widest = Math.max(...[...box.options].map((o) => context.measureText(o.text).width));
      // Chromium draws its arrow inside the right padding's end: leave it 20 px.
      const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
      return { widest, room };
    });
    expect(fit.widest).toBeLessThanOrEqual(fit.room);
    await expectNoAxeViolations(page);
  });
}

/**
 * The longest size names in the catalogue (a tanpura's "Female Voice (Tuned to G#) - £1,199.00")
 * outgrow any card's select: the card shows the chosen option's whole text, wrapping it, at a
 * desktop width and at the narrowest tablet one.
 */
for (const width of [720, 1366]) {
  test(`a product card shows the whole text of even the longest size option, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    const product = await productWithLongestSizeName(page);
    await page.goto(`/search?k=${encodeURIComponent(product.title)}`);
    const card = page.getByRole('article', { name: product.title });
    await card.getByRole('button', { name: 'Add to cart' }).click();
    const select = card.getByLabel('Size / Style');
    for (const stock of product.stocks.filter((s) => s.stock > 0)) {
      await select.selectOption(String(stock.id));
      const text = await select.evaluate((element) => (element as HTMLSelectElement).selectedOptions[0]!.text);
      const shown = card.getByText(text, { exact: true }).filter({ visible: true });
      await expect(shown).toBeVisible();
      const clipped = await shown.evaluate(
        (element) => element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight,
      );
      expect(clipped, text).toBe(false);
    }
    await expectNoAxeViolations(page);
  });
}

async function productWithLongestSizeName(page: Page) {
  type Found = { title: string; stocks: Array<{ id: number; stock: number; productSizeName: string }> };
  const products: Found[] = [];
  for (let pageNumber = 1; ; pageNumber++) {
    const answer = (await (await apiPost(page, '/api/search', { pageSize: 100, pageNumber })).json()) as {
      results: Found[];
      totalResults: number;
    };
    products.push(...answer.results);
    if (answer.results.length === 0 || products.length >= answer.totalResults) break;
  }
  const longest = (p: Found) => Math.max(...p.stocks.map((s) => s.productSizeName.length));
  const candidates = products.filter((p) => p.stocks.length >= 2 && p.stocks.some((s) => s.stock > 0));
  return candidates.sort((a, b) => longest(b) - longest(a))[0]!;
}

/**
 * A card's photo is chosen from its srcset by the width its `sizes` names, before layout: on a
 * phone that must be the width the card draws it at (a larger one makes a phone on a slow link
 * fetch a photo four times the pixels: 640 px wide rather than 320), and from tablet width up, no
 * less than it. Measured on the card's picture box, the same for a drawing and a photo.
 */
for (const width of [360, 412, 540, 700, 719, 720, 1023, 1366]) {
  test(`a card's picture sizes say how wide it is drawn, at ${width} px`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    for (const path of ['/search?t=2010', '/home']) {
      await page.goto(path);
      await expectCardPictureSized(page, width);
    }
  });
}

async function expectCardPictureSized(page: Page, width: number) {
  const picture = page.getByRole('article').first().locator('a[aria-hidden="true"] img');
  await expect(picture).toBeVisible();
  const drawn = await picture.evaluate((img) => img.getBoundingClientRect().width);
  // What `sizes` resolves to here: its first entry whose media condition holds, as a CSS length.
  const named = await page.evaluate((sizes) => {
    const entries = sizes.split(/,\s*(?![^()]*\))/);
    const chosen = entries
      .map((entry) => {
        const match = /^(\([^)]*\))\s+(.+)$/.exec(entry.trim());
        return match ? { media: match[1]!, length: match[2]! } : { media: 'all', length: entry.trim() };
      })
      .find(({ media }) => matchMedia(media).matches)!;
    const probe = document.createElement('div');
    probe.style.cssText = `position: fixed; left: 0; top: 0; width: ${chosen.length}`;
    document.body.append(probe);
    const measured = probe.getBoundingClientRect().width;
    probe.remove();
    return measured;
  }, productCardImageSizes);
  const says = `${page.url()}: sizes ${named} px, drawn ${drawn} px`;
  if (width < 720) expect(Math.abs(named - drawn), says).toBeLessThanOrEqual(1);
  else expect(named, says).toBeGreaterThanOrEqual(drawn);
}
