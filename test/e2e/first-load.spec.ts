import { expect, productWithSizes, test } from './fixtures.ts';

/**
 * What a storefront page's first load fetches (docs/benchmarks.md#pages): the page's own code, not
 * the schema library the forms check their fields with. Zod came along with the first load once,
 * pulled by one constant taken from a contract module that also defines schemas (25 kB gzip on
 * every page); a form's page brings it when it is opened.
 */
test('home, search and product pages load without the schema library', async ({ page }) => {
  const product = await productWithSizes(page);
  for (const path of ['/', '/search?t=2010', `/products/${product.urlKey}`]) {
    const scripts: Array<Promise<{ url: string; body: string }>> = [];
    const listen = (response: import('@playwright/test').Response) => {
      if (response.request().resourceType() === 'script')
        scripts.push(response.text().then((body) => ({ url: response.url(), body })));
    };
    page.on('response', listen);
    await page.goto(path, { waitUntil: 'networkidle' });
    await expect(page.getByRole('main')).toBeVisible();
    page.off('response', listen);
    const loaded = await Promise.all(scripts);
    expect(loaded.length, path).toBeGreaterThan(0);
    // Zod's own class names survive minifying: they are how it tells its schemas apart.
    const withZod = loaded.filter((script) => script.body.includes('$ZodObject')).map((script) => script.url);
    expect(withZod, path).toEqual([]);
  }
});
