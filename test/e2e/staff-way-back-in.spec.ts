import { expect, expectNoAxeViolations, linkFrom, test } from './fixtures.ts';
import { createOwner, openFromNav, resetStaff, setPassword, signIn, totpCode } from './staff-pages.ts';

/**
 * A way back in (issue 37, docs/back-office.md#staff-accounts): the shop's only owner, with
 * two-factor sign-in on, loses their phone, then their password, then everything, and gets back
 * in each time: by a recovery code, by e-mail, and on the command line.
 */
test.describe('a way back in to the back office', () => {
  // Signed out, the app asks who is signed in (401); a spent recovery code is refused with 401 too.
  test.use({ allowConsoleErrors: [/status of 401/] });

  test('a locked-out owner gets back in by recovery code, by e-mail and with npm run staff:reset', async ({ page }) => {
    test.slow();
    const email = `sole.owner.${Date.now()}@example.com`;
    await setPassword(page, createOwner(email));
    await signIn(page, email);

    // Two-factor sign-in on: a QR code to scan, then ten recovery codes shown once.
    await openFromNav(page, 'My account');
    await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    await expectNoAxeViolations(page);
    const secret = (await page.getByTestId('totp-secret').innerText()).trim();
    await page.getByLabel('Six-digit code from the app').fill(totpCode(secret));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await expect(page.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();
    const codes = (await page.getByTestId('recovery-codes').getByRole('listitem').allInnerTexts()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();

    // The phone is lost: a recovery code in place of the app's code, once.
    await signIn(page, email, () => codes[0]!);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the back office' })).toBeVisible();
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('Ledger-Tabla-Harmonium-7');
    await page.getByLabel('Six-digit code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toContainText('Sign-in failed');

    // The password is forgotten too: a link by e-mail.
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Forgot your password?' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.getByLabel('E-mail address').fill(email);
    await page.getByRole('button', { name: 'E-mail me a link' }).click();
    await expect(page.getByRole('status')).toContainText('we have e-mailed it a link');
    await expectNoAxeViolations(page);
    await setPassword(page, await linkFrom(page, email, 'admin/set-password'));
    await signIn(page, email, () => codes[1]!);

    // New recovery codes end the old ones.
    await openFromNav(page, 'My account');
    await page.getByLabel('Your password').last().fill('Ledger-Tabla-Harmonium-7');
    await page.getByRole('button', { name: 'Make new recovery codes' }).click();
    await expect(page.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();

    // Everything lost (password, phone, codes): the command line on the shop's machine.
    await setPassword(page, resetStaff(email, ['--no-two-factor']));
    await signIn(page, email);
    await openFromNav(page, 'My account');
    await expect(page.getByRole('button', { name: 'Turn on two-factor sign-in' })).toBeVisible();
  });

  test('a new member gets their link by e-mail; an owner resets their two-factor sign-in when their phone is lost', async ({
    page,
    browser,
  }) => {
    test.slow();
    const stamp = Date.now();
    const ownerEmail = `owner.reset.${stamp}@example.com`;
    const staffEmail = `packer.reset.${stamp}@example.com`;
    await setPassword(page, createOwner(ownerEmail));
    await signIn(page, ownerEmail);
    await openFromNav(page, 'Staff');
    await page.getByLabel('Name').fill('Dev Packer');
    await page.getByLabel('E-mail address').fill(staffEmail);
    await page.getByRole('button', { name: 'Add and show the set-password link' }).click();
    await expect(page.getByRole('status')).toContainText(`We have e-mailed ${staffEmail} this link`);

    // The member follows the e-mailed link, in a browser of their own, and turns on two-factor sign-in.
    const theirs = await browser.newContext();
    const member = await theirs.newPage();
    await member.goto('/admin/sign-in');
    await setPassword(member, await linkFrom(page, staffEmail, 'admin/set-password'));
    await signIn(member, staffEmail);
    await openFromNav(member, 'My account');
    await member.getByRole('button', { name: 'Turn on two-factor sign-in' }).click();
    const secret = (await member.getByTestId('totp-secret').innerText()).trim();
    await member.getByLabel('Six-digit code from the app').fill(totpCode(secret));
    await member.getByRole('button', { name: 'Confirm and turn on' }).click();
    await expect(member.getByRole('heading', { name: 'Your recovery codes' })).toBeVisible();

    // Phone and codes lost: the owner turns it off for them, which signs them out.
    await page.reload();
    const row = page.getByRole('row', { name: new RegExp(staffEmail) });
    await expect(row.getByRole('cell', { name: 'On', exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await row.getByRole('button', { name: `Reset two-factor for ${staffEmail}` }).click();
    await expect(page.getByRole('status')).toContainText(`Two-factor sign-in is off for ${staffEmail}`);
    await expect(row.getByRole('cell', { name: 'Off', exact: true })).toBeVisible();
    await expectNoAxeViolations(page);
    await member.reload();
    await expect(member.getByRole('heading', { level: 1, name: 'Sign in to the back office' })).toBeVisible();
    await member.goto('/admin/sign-in');
    await signIn(member, staffEmail);
    await theirs.close();
  });
});
