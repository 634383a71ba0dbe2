import { expect, expectNoAxeViolations, paidOrder, test } from './fixtures.ts';
import { createOwner, openFromNav, setPassword, signIn } from './staff-pages.ts';

/**
 * Permissions in the browser (issue 37 item 2, docs/back-office.md#permissions): the owner defines
 * a packer on the Roles page and gives the role out; the packer's back office shows the orders and
 * the dispatch form, and nothing their role does not allow, by the table the server sent.
 */
// Asking who is signed in answers 401 while nobody is.
test.use({ allowConsoleErrors: [/status of 401/] });

test('an owner defines a packer, who sees only the orders and the dispatch form', async ({ page, browser }) => {
  test.slow();
  const stamp = Date.now();
  const ownerEmail = `owner.roles.${stamp}@example.com`;
  const packerEmail = `packer.roles.${stamp}@example.com`;

  await setPassword(page, createOwner(ownerEmail));
  await signIn(page, ownerEmail);

  // The role editor: a new role of one permission.
  await openFromNav(page, 'Roles');
  const newRole = page.getByRole('form', { name: 'New role' });
  await newRole.getByLabel('Name').fill('Packer');
  await newRole.getByLabel('Dispatch orders').check();
  await newRole.getByRole('button', { name: 'Add the role' }).click();
  await expect(page.getByText('Role “Packer” added.')).toBeVisible();
  await expect(page.getByRole('form', { name: 'Packer' }).getByLabel('Dispatch orders')).toBeChecked();
  await expect(page.getByRole('form', { name: 'Packer' }).getByLabel('Refund')).not.toBeChecked();
  await expectNoAxeViolations(page);

  // Given out on the Staff page, saying what it allows.
  await openFromNav(page, 'Staff');
  await page.getByLabel('Name').fill('Dev Packer');
  await page.getByLabel('E-mail address').fill(packerEmail);
  await page.getByLabel('Role', { exact: true }).selectOption('Packer');
  await page.getByRole('button', { name: 'Add and show the set-password link' }).click();
  const link = new URL((await page.getByTestId('set-password-link').innerText()).trim()).pathname;
  await page.getByRole('button', { name: 'Sign out', exact: true }).click();

  // A shopper pays meanwhile.
  const shopper = await browser.newContext();
  const { orderNumber } = await paidOrder(await shopper.newPage(), 'TR20 1PK', `meera.roles.${stamp}@example.com`);
  await shopper.close();

  // The packer: no dashboard, so the first page their role allows; the nav holds only what it may open.
  await setPassword(page, link);
  await page.getByLabel('E-mail address').fill(packerEmail);
  await page.getByLabel('Password').fill('Ledger-Tabla-Harmonium-7');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Orders' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Back office' }).getByRole('link')).toHaveText([
    'Orders',
    'Labels',
    'My account',
  ]);
  await expectNoAxeViolations(page);

  // On the order: the dispatch form, and no refund, cancel or revoking the customer's link.
  await page.getByRole('link', { name: String(orderNumber) }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Order ${orderNumber}` })).toBeFocused();
  const actions = page.getByRole('region', { name: 'Actions' });
  await expect(actions.getByRole('heading', { name: 'Dispatch' })).toBeVisible();
  await expect(actions.getByRole('heading')).toHaveText(['Actions', 'Dispatch', 'Delivery details']);
  await expect(page.getByRole('button', { name: 'Record refund' })).toHaveCount(0);
  await expectNoAxeViolations(page);

  // A page typed in by hand says it is not theirs (and the server refuses its data anyway).
  await page.goto('/admin/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Not for your role' })).toBeVisible();
  await openFromNav(page, 'My account');
  await expect(page.getByText('Dispatch orders', { exact: true })).toBeVisible();
});
