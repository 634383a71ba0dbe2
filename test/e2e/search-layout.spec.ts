import type { Locator } from '@playwright/test';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';

/** The search page's sidebar and title (issue 32, item 10). */

/** Whether each corner of `element`'s box shows the element itself: not cut off, covered or off screen. */
async function shownWhole(element: Locator): Promise<boolean> {
  return element.evaluate((target) => {
    const box = target.getBoundingClientRect();
    // Inside its rounded corners.
    const inset = 6;
    const corners = [
      [box.left + inset, box.top + inset],
      [box.right - inset, box.top + inset],
      [box.left + inset, box.bottom - inset],
      [box.right - inset, box.bottom - inset],
    ] as const;
    return corners.every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && target.contains(hit);
    });
  });
}

for (const viewport of [
  { width: 1024, height: 700 },
  { width: 1280, height: 720 },
  { width: 1366, height: 768 },
]) {
  test(`the sidebar's advert shows whole as the results scroll by, at ${viewport.width}×${viewport.height}`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    await page.goto('/search');
    const filters = page.getByRole('complementary', { name: 'Filters' });
    const advert = filters.getByRole('link', { name: /^String instruments/ });
    await expect(page.getByRole('heading', { name: /PRODUCTS FOUND$/ })).toBeVisible();
    // Down the results: the sidebar has stuck below the header.
    await page.getByRole('article').nth(9).scrollIntoViewIfNeeded();
    await expect.poll(() => shownWhole(advert)).toBe(true);
    // The filters are all still there to reach, the last brand too.
    await filters.getByRole('checkbox').last().scrollIntoViewIfNeeded();
    await expect(filters.getByRole('checkbox').last()).toBeInViewport();
    await expect.poll(() => shownWhole(advert)).toBe(true);
    await expectNoAxeViolations(page);
  });
}

test('the filters’ checkboxes are all one size, however long the names beside them', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('/search');
  const boxes = page.getByRole('complementary', { name: 'Filters' }).getByRole('checkbox');
  await expect(boxes.first()).toBeVisible();
  const sizes = await boxes.evaluateAll((inputs) =>
    inputs.map((input) => {
      const box = input.getBoundingClientRect();
      return `${input.closest('label')?.textContent}: ${box.width}×${box.height}`;
    }),
  );
  const distinct = new Set(sizes.map((size) => size.split(': ')[1]));
  expect(distinct.size, sizes.join('\n')).toBe(1);
});

for (const address of ['/search?k=dhol', '/search?t=2010', '/search']) {
  test(`the search page has one title, drawn by the server and by the app: ${address}`, async ({ page }) => {
    const served = await (await page.request.get(address)).text();
    const drawn = /<title[^>]*>([^<]*)<\/title>/.exec(served)?.[1];
    expect(drawn).toBeTruthy();
    await page.goto(address);
    await expect(page.getByRole('heading', { name: /PRODUCTS FOUND$/ })).toBeVisible();
    await expect(page).toHaveTitle(drawn!.replace(/&amp;/g, '&'));
  });
}
