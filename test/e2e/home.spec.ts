import { expect, test } from './fixtures.ts';

test('home shows the banner, four adverts and its five sections of 8 products', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/home$/);
  await expect(page).toHaveTitle(/^Welcome to .+ \| .+$/);
  const adverts = page.getByRole('list', { name: 'Shop by category' }).getByRole('link');
  await expect(adverts).toHaveCount(4);
  expect(await adverts.evaluateAll((links) => links.map((a) => a.getAttribute('href')))).toEqual([
    '/search?t=2035',
    '/search?t=2010',
    '/search?t=2017',
    '/search?t=1001',
  ]);
  const sections = [
    ['FEATURED INSTRUMENTS', '/search?t=2017,2009,1003'],
    ['PROFESSIONAL QUALITY DHOLS', '/search?t=2010'],
    ['TABLAS', '/search?t=2035'],
    ['HARMONIUM', '/search?t=2017'],
    ['STRING INSTRUMENTS', '/search?t=1001'],
  ];
  for (const [title, viewMore] of sections) {
    const section = page.getByRole('region', { name: title, exact: true });
    await expect(section.getByRole('article')).toHaveCount(8);
    await expect(section.getByRole('link', { name: /VIEW MORE/ })).toHaveAttribute('href', viewMore as string);
  }
  await expect(page.getByRole('heading', { name: 'Fast UK delivery' })).toBeVisible();
});

test('the banner slider is operable from the keyboard and can be paused', async ({ page }) => {
  await page.goto('/home');
  const slider = page.getByRole('region', { name: 'Highlights' });
  await expect(slider.getByRole('heading', { name: 'Dhols made for the baraat' })).toBeVisible();
  await slider.getByRole('button', { name: 'Next slide' }).focus();
  await page.keyboard.press('Enter');
  await expect(slider.getByRole('heading', { name: /Harmoniums with a voice/ })).toBeVisible();
  await expect(slider.getByRole('heading', { name: 'Dhols made for the baraat' })).toBeHidden();
  await slider.getByRole('button', { name: 'Show slide 1' }).click();
  await expect(slider.getByRole('heading', { name: 'Dhols made for the baraat' })).toBeVisible();
  await slider.getByRole('button', { name: 'Pause' }).click();
  await expect(slider.getByRole('button', { name: 'Play' })).toBeVisible();
});

test('the layout has the top bar, the products mega-menu, and the footer links of the spec', async ({ page }) => {
  await page.goto('/home');
  await expect(
    page.getByRole('navigation', { name: 'Contact and account' }).getByRole('link', { name: 'Login' }),
  ).toBeVisible();
  await page.getByRole('button', { name: /PRODUCTS/ }).click();
  const menu = page.getByRole('heading', { name: 'Keyboards & Electronic' });
  await expect(menu).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(menu).toBeHidden();
  await page.getByRole('button', { name: /PRODUCTS/ }).click();
  await page.getByRole('link', { name: 'Harmoniums', exact: true }).first().click();
  await expect(page).toHaveURL(/\/search\?t=2017$/);

  const footer = page.getByRole('contentinfo');
  const quickShop = await footer
    .getByRole('region', { name: 'Quick Shop' })
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')));
  expect(quickShop).toEqual([2021, 2017, 2009, 1003, 2019, 1001, 2016].map((id) => `/search?t=${id}`));
  const brandLinks = await footer
    .getByRole('region', { name: 'Brands' })
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')).filter((href) => href?.startsWith('/search')));
  expect(brandLinks).toEqual(['/search?b=2', '/search?b=1', '/search?b=1001']);
  await expect(footer.getByText(/Company No\./).first()).toBeVisible();
  await expect(footer.getByRole('button', { name: 'Show the map' })).toBeVisible();
});
