import { expect, expectNoAxeViolations, productWithSizes, test } from './fixtures.ts';

/**
 * Issue 16, item 15 (b): a product card's size options are read in full from tablet width up: at
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
