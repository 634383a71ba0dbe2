import { expect, test } from './fixtures.ts';

const found = (page: import('@playwright/test').Page) => page.getByRole('heading', { name: /PRODUCTS FOUND$/ });
const count = async (page: import('@playwright/test').Page) => Number((await found(page).innerText()).split(' ')[0]);

test('search by keyword: Enter needs 2 characters, the URL takes the keyword only above 2', async ({ page }) => {
  await page.goto('/search');
  await expect(page).toHaveTitle(/^Search for products \| /);
  await expect(found(page)).toBeVisible();
  const all = await count(page);
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await box.fill('h');
  await box.press('Enter');
  await expect(page.getByText('Please type at least 2 characters to search.')).toBeVisible();
  expect(await count(page)).toBe(all);
  await box.fill('baja');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search\?k=baja$/);
  await expect(page.getByRole('article').first()).toContainText(/Harmonium|Baja/);
  expect(await count(page)).toBeLessThan(all);
  await expect(
    page.getByRole('region', { name: 'Selected Filters' }).getByRole('button', { name: /“baja”/ }),
  ).toBeVisible();
});

test('search by category and brand, remove chips, and LOAD MORE', async ({ page }) => {
  await page.goto('/search');
  await expect(found(page)).toBeVisible();
  const all = await count(page);
  expect(all).toBeGreaterThan(36);
  await expect(page.getByRole('article')).toHaveCount(36);
  await page.getByRole('button', { name: 'LOAD MORE' }).click();
  await expect(page.getByRole('article')).toHaveCount(Math.min(72, all));

  const filters = page.getByRole('complementary', { name: 'Filters' });
  await filters.getByRole('checkbox', { name: 'Drums' }).check();
  await expect(page).toHaveURL(/\/search\?t=1002$/);
  await filters.getByRole('button', { name: 'Show Drums types' }).click();
  await expect(filters.getByRole('checkbox', { name: 'Tablas' })).toBeChecked();
  const drums = await count(page);
  await filters.getByRole('checkbox', { name: 'Tablas' }).uncheck();
  await expect(filters.getByRole('checkbox', { name: 'Drums' })).not.toBeChecked();
  await expect(page).toHaveURL(/\/search\?t=2010,2008,2011,2016$/);
  await expect.poll(() => count(page)).toBeLessThan(drums);

  await filters.getByRole('checkbox', { name: 'Punjab Dhol House' }).check();
  await expect(page).toHaveURL(/&b=4$/);
  const chips = page.getByRole('region', { name: 'Selected Filters' });
  await expect(chips.getByRole('button')).toHaveCount(5);
  for (const card of await page.getByRole('article').all()) await expect(card).toBeVisible();
  await chips.getByRole('button', { name: /Punjab Dhol House/ }).click();
  await expect(page).toHaveURL(/\/search\?t=2010,2008,2011,2016$/);
  await chips.getByRole('button', { name: /Dhols/ }).click();
  await expect(page).toHaveURL(/\/search\?t=2008,2011,2016$/);
});

test('a link with filters opens the search with them selected', async ({ page }) => {
  await page.goto('/search?t=2017,2009,1003&b=2');
  const filters = page.getByRole('complementary', { name: 'Filters' });
  await expect(filters.getByRole('checkbox', { name: 'Keyboards & Electronic' })).toBeChecked();
  await expect(filters.getByRole('checkbox', { name: 'Percussion' })).toBeChecked();
  await expect(filters.getByRole('checkbox', { name: 'Raagini' })).toBeChecked();
  await expect(page).toHaveURL(/\/search\?t=2009,1003&b=2$/);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the filters open in a modal that closes after each search', async ({ page }) => {
    await page.goto('/search');
    await expect(page.getByRole('complementary', { name: 'Filters' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Filters' }).click();
    const dialog = page.getByRole('dialog', { name: 'Filters' });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('checkbox', { name: 'Percussion' }).check();
    await expect(dialog).toBeHidden();
    await expect(page).toHaveURL(/\/search\?t=2009$/);
    await expect(page.getByRole('button', { name: 'Filters (1)' })).toBeVisible();
  });
});
