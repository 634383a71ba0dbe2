import { renderBodies } from '../../src/server/mail/mailer.ts';
import { testMailBrand } from '../helpers/mail-brand.ts';
import { sampleMails } from '../helpers/mail-samples.ts';
import { axeViolations, expect, test } from './fixtures.ts';

/**
 * Every e-mail template rendered in Chromium as a phone and a desktop mail program would show it
 * (docs/rules.md#mail): 600 and 375 pixels wide, nothing wider than the window, its content
 * visible, its pictures loaded, and no request to any address but the shop's own.
 */

const shop = 'https://shop.test';
const brand = testMailBrand({ publicUrl: shop });
// The smallest PNG: one transparent pixel, for the line pictures.
const pixel = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

for (const { name, message } of sampleMails(shop)) {
  const { html } = renderBodies(message, brand);
  for (const width of [600, 375]) {
    test(`the ${name} e-mail at ${width} px`, async ({ page }) => {
      const elsewhere: string[] = [];
      await page.setViewportSize({ width, height: 800 });
      await page.route('**/*', async (route) => {
        const url = new URL(route.request().url());
        if (url.origin !== shop) {
          elsewhere.push(url.href);
          return route.abort();
        }
        if (url.pathname === '/mail') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: html });
        if (url.pathname.startsWith('/images/')) return route.fulfill({ contentType: 'image/png', body: pixel });
        return route.fulfill({ status: 404, body: '' });
      });
      await page.goto(`${shop}/mail`);
      await page.waitForLoadState('networkidle');

      // Nothing from anywhere but the shop's own address.
      expect(elsewhere).toEqual([]);
      // Nothing wider than the window: no sideways scrolling.
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(sideways).toBeLessThanOrEqual(0);
      // The shop's name above, its particulars below, and the message between.
      await expect(page.getByRole('link', { name: brand.shop.name, exact: true })).toBeVisible();
      await expect(page.getByText(`Company number ${brand.shop.companyNumber}`)).toBeVisible();
      const heading = page.getByRole('heading', { level: 1 });
      if (message.template) await expect(heading).toBeVisible();
      // Each button is on the page, whole.
      for (const button of await page
        .locator('a[href]')
        .filter({ hasText: /^(View order|View your order|Try|Choose|Confirm|Track|Sign in)/ })
        .all()) {
        await expect(button).toBeVisible();
        const box = (await button.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      // Every picture loaded.
      const broken = await page.evaluate(() =>
        [...document.images].filter((img) => !img.complete || img.naturalWidth === 0).map((img) => img.src),
      );
      expect(broken).toEqual([]);
      expect(await axeViolations(page)).toEqual([]);
    });
  }
}
