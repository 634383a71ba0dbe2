import AxeBuilder from '@axe-core/playwright';
import { expect, expectNoAxeViolations, productWithSizes, test } from './fixtures.ts';

test.describe('an unknown page', () => {
  // The browser reports the page's own 404 status on the console.
  test.use({ allowConsoleErrors: [/status of 404/] });
  test('answers 404 and shows the 404 page inside the shop layout', async ({ page }) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page).toHaveTitle(/^404 Page Not Found \| /);
    await expect(page.getByRole('heading', { level: 1, name: '404' })).toBeVisible();
    await expect(page.getByText('OOPS! NOTHING WAS FOUND')).toBeVisible();
    await page.getByRole('main').getByRole('link', { name: 'HOME', exact: true }).click();
    await expect(page).toHaveURL(/\/home$/);
  });
});

test('the contact form shows each field message once touched and invalid', async ({ page }) => {
  await page.goto('/contact');
  await expect(page.getByRole('heading', { level: 1, name: 'CONTACT US' })).toBeVisible();
  await expect(page.getByText('How can we help you?')).toBeVisible();
  await page.getByRole('button', { name: 'SEND' }).click();
  for (const message of [
    'Please provide your Email Address',
    'Please provide your Name',
    'Please provide a contact number',
    'Please provide a Message',
  ]) {
    await expect(page.getByText(message)).toBeVisible();
  }
  await page.getByLabel('Email Address').fill('not-an-email');
  await page.getByLabel('Name').focus();
  await expect(page.getByText('Please provide a valid Email Address')).toBeVisible();
  await page.getByLabel('Email Address').fill('ravi@example.com');
  await page.getByLabel('Name').fill('Ravi');
  await expect(page.getByText('Please provide a valid Email Address')).toBeHidden();
  await expect(page.getByText('Please provide your Name')).toBeHidden();
});

test('the terms page has every heading the spec lists', async ({ page }) => {
  await page.goto('/termsandconditions');
  await expect(page).toHaveTitle(/^Terms And Conditions \| /);
  await expect(page.getByRole('heading', { level: 1, name: 'Terms Of Use' })).toBeVisible();
  await expect(page.getByText('The small Print')).toBeVisible();
  const headings = await page.getByRole('heading', { level: 2 }).allInnerTexts();
  for (const heading of [
    'Changes to these terms',
    'Ordering',
    'Delivery and returns',
    'Exchanges',
    'Non-returnable items',
    'Incorrect and damaged goods',
    'Delivery service',
    'Export restrictions',
    'Privacy notice',
    'Security',
    'Conditions of use',
    'Copyright',
    'Intellectual property',
    'Indemnity',
    'Third-party links',
    'Limitation of liability',
    'Licence and site access',
    'Product descriptions',
    'Prices',
    'Data protection',
    'Disclaimer',
  ]) {
    expect(headings).toContain(heading);
  }
  // The law over the spec's seven days and 20 % restocking fee (DESIGN.md section 9).
  await expect(page.getByText(/within 14 days starting the day after you receive the goods/)).toBeVisible();
  await expect(page.getByText(/restocking fee/)).toHaveText(/with no restocking fee/);
  await expect(page.getByText(/seven days/)).toHaveCount(0);
});

test('the returns page states the right to cancel and gives the model cancellation form, linked from every page', async ({
  page,
}) => {
  await page.goto('/home');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Returns and Cancellations' }).click();
  await expect(page).toHaveURL(/\/returns$/);
  await expect(page).toHaveTitle(/^Returns And Cancellations \| /);
  await expect(page.getByRole('heading', { level: 1, name: 'Returns and Cancellations' })).toBeVisible();
  await expect(page.getByText(/within 14 days starting the day after you receive the goods/)).toBeVisible();
  await expect(page.getByText(/There is no restocking fee/)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: 'Model cancellation form' })).toBeVisible();
  await expect(
    page.getByText('I/We hereby give notice that I/We cancel my/our contract of sale of the following goods:'),
  ).toBeVisible();
});

test.describe('accessibility', () => {
  for (const path of [
    '/home',
    '/search',
    '/search?t=1002&b=4',
    '/about',
    '/contact',
    '/termsandconditions',
    '/returns',
    '/shoppingcart',
    '/no-such-page',
    '/login',
  ]) {
    test.describe(path, () => {
      test.use({ allowConsoleErrors: [/status of 404/] });
      test(`axe finds nothing on ${path}`, async ({ page }) => {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expectNoAxeViolations(page);
      });
    });
  }

  test('axe finds nothing on a product page, nor with a card open', async ({ page }) => {
    const product = await productWithSizes(page);
    await page.goto(`/products/${product.urlKey}`);
    await page.waitForLoadState('networkidle');
    await expectNoAxeViolations(page);
    await page.goto(`/search?k=${encodeURIComponent(product.title)}`);
    await page.getByRole('article', { name: product.title }).getByRole('button', { name: 'Add to cart' }).click();
    await expectNoAxeViolations(page);
  });

  // Beyond WCAG's rules, axe's best practices too: everything in a landmark, the top bar's phone
  // link included (issue 32, item 9).
  test.describe('every part of the page is in a landmark', () => {
    for (const viewport of [
      { width: 1366, height: 900 },
      { width: 390, height: 844 },
    ]) {
      test(`axe's full rule set finds nothing at ${viewport.width} px, the top bar's phone link included`, async ({
        page,
      }) => {
        await page.setViewportSize(viewport);
        for (const path of ['/home', '/contact']) {
          await page.goto(path);
          await page.waitForLoadState('networkidle');
          const results = await new AxeBuilder({ page }).analyze();
          expect(results.violations.map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' '))}`)).toEqual(
            [],
          );
        }
        await expect(
          page.getByRole('navigation', { name: 'Contact and account' }).getByRole('link', { name: /0121 496 0742/ }),
        ).toBeVisible();
      });
    }
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 360, height: 740 } });
    test('axe finds nothing on home and search', async ({ page }) => {
      for (const path of ['/home', '/search']) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        await expectNoAxeViolations(page);
      }
    });
  });
});

test('the cart page loads without the form schemas (zod), which only forms need', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/shopping-cart');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(scripts.some((path) => /\/cart-page-[\w-]+\.js$/.test(path))).toBe(true);
  expect(scripts.filter((path) => /\/assets\/(schemas|zod)-[\w-]+\.js$/.test(path))).toEqual([]);
});
