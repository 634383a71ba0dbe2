import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { apiPost, expect, expectNoAxeViolations, productWithSizes, test } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';
import { picture } from './pictures.ts';
import { testEnvironment } from '../helpers/test-environment.ts';

/**
 * Product photos from the back office to the shop (docs/back-office.md#product-photos): a member of
 * staff uploads a JPEG, a PNG and a WebP made here, orders them by keyboard, and the product page
 * shows them as responsive pictures.
 */
const port = Number(process.env.E2E_PORT ?? 3555);
const PASSWORD = 'Sarangi-Bow-Rosin-42';

/** A member of staff made with `npm run staff:create`, whose password is set through their link. */
async function staffWithPassword(page: Page): Promise<string> {
  const email = `photos.${Date.now()}@shop.example`;
  const printed = execFileSync(process.execPath, ['src/server/staff/cli/create-staff.ts', '--email', email], {
    env: { ...process.env, ...testEnvironment, DATABASE_URL: `sqlite:${databaseFor(port)}` },
  }).toString();
  const token = /\/admin\/set-password\/(\S+)/.exec(printed)?.[1];
  if (!token) throw new Error(`no set-password link in: ${printed}`);
  const set = await apiPost(page, '/api/admin/set-password', { token, password: PASSWORD, confirm: PASSWORD });
  expect(set.status()).toBe(200);
  return email;
}

// Asking who is signed in before sign-in answers 401; the refused upload answers 400.
test.use({ allowConsoleErrors: [/status of 40[01]/] });

test('staff upload three photos, order them by keyboard, and the product page serves them with srcset', async ({
  page,
}) => {
  const product = await productWithSizes(page, 2035, 1);
  const found = await (await page.request.get(`/api/products/${product.urlKey}`)).json();
  const email = await staffWithPassword(page);

  await page.goto('/admin/sign-in');
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();

  await page.goto(`/admin/products/${found.id}/photos`);
  await expect(page.getByRole('heading', { level: 1, name: `Photos of ${product.title}` })).toBeVisible();
  await expect(page.getByText('No photos yet')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel('Add photos').setInputFiles([
    { name: 'front.jpg', mimeType: 'image/jpeg', buffer: await picture('jpeg', 1800, 1200, '#a0522d') },
    { name: 'side.png', mimeType: 'image/png', buffer: await picture('png', 900, 900, '#1f7a5c') },
    { name: 'top.webp', mimeType: 'image/webp', buffer: await picture('webp', 700, 500, '#6c3fa0') },
  ]);
  const photos = page.getByRole('list', { name: 'Photos, main image first' }).getByRole('listitem');
  await expect(photos).toHaveCount(3);
  await expect(page.getByRole('status')).toHaveText('top.webp added.');
  await expect(photos.nth(0)).toContainText('Photo 1: main image');
  await expect(photos.nth(0)).toContainText('1800 × 1200, JPEG');
  await expect(photos.nth(2)).toContainText('700 × 500, WEBP');
  await expectNoAxeViolations(page);

  // By keyboard: the PNG moves up to the front, and focus stays with it.
  await page.getByRole('button', { name: 'Move up photo 2' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status')).toHaveText('Photo moved to position 1, the main image.');
  await expect(photos.nth(0)).toContainText('900 × 900, PNG');
  await expect(page.getByRole('button', { name: 'Move down photo 1' })).toBeFocused();
  // The WebP is made the main image; the PNG follows it.
  await page.getByRole('button', { name: 'Make main image (photo 3)' }).click();
  await expect(photos.nth(0)).toContainText('700 × 500, WEBP');
  await expect(photos.nth(1)).toContainText('900 × 900, PNG');

  // A PHP script named .jpg, dropped on the page, is refused with the server's reason, and nothing is added.
  const dropped = await page.evaluateHandle(() => {
    const data = new DataTransfer();
    data.items.add(new File(['<?php system($_GET["c"]); ?>'], 'shell.jpg', { type: 'image/jpeg' }));
    return data;
  });
  await page.getByText('or drop them here').locator('..').dispatchEvent('drop', { dataTransfer: dropped });
  await expect(page.getByRole('list', { name: 'Uploads' })).toContainText(
    'shell.jpg: this is not a JPEG, PNG or WebP picture (whatever its name says).',
  );
  await expect(photos).toHaveCount(3);

  // The shop: the main photo eager and first to load, every picture with its srcset, sizes and size.
  await page.goto(`/products/${product.urlKey}`);
  const main = page.getByRole('button', { name: /^Enlarge picture 1/ }).getByRole('img', { name: product.title });
  await expect(main).toHaveAttribute('srcset', /\/images\/photos\/[0-9a-f]{32}-320\.webp 320w, .*-700\.webp 700w$/);
  await expect(main).toHaveAttribute('sizes', /588px$/);
  await expect(main).toHaveAttribute('width', '700');
  await expect(main).toHaveAttribute('height', '500');
  await expect(main).toHaveAttribute('loading', 'eager');
  await expect(main).toHaveAttribute('fetchpriority', 'high');
  await expect(page.locator('button picture source[type="image/avif"]').first()).toHaveAttribute(
    'srcset',
    /-320\.avif 320w/,
  );
  await expect
    .poll(() => main.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  expect(await main.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(/\/images\/photos\/.*\.avif$/);
  const thumbs = page.getByRole('list', { name: 'More pictures' }).locator('img');
  await expect(thumbs).toHaveCount(3);
  for (const thumb of await thumbs.all()) {
    await expect(thumb).toHaveAttribute('loading', 'lazy');
    await expect(thumb).toHaveAttribute('srcset', /\/images\/photos\/.* 320w/);
  }
  const served = await page.request.get((await main.getAttribute('src')) ?? '');
  expect(served.headers()['content-type']).toBe('image/webp');
  expect(served.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
  await expectNoAxeViolations(page);
});
