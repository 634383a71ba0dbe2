import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expect, expectNoAxeViolations } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';
import { testEnvironment } from '../helpers/test-environment.ts';

/** Staff in the browser tests: an owner made on the command line, choosing a password, signing in, moving around. */

const port = Number(process.env.E2E_PORT ?? 3555);
const PASSWORD = 'Ledger-Tabla-Harmonium-7';

/**
 * `npm run staff:create` against a test server's database (the first one's unless told): the path
 * of the printed set-password link.
 */
export function createOwner(email: string, serverPort = port): string {
  const printed = execFileSync(
    process.execPath,
    ['src/server/staff/cli/create-staff.ts', '--email', email, '--role', 'owner', '--name', 'Asha Owner'],
    {
      env: { ...process.env, ...testEnvironment, DATABASE_URL: `sqlite:${databaseFor(serverPort)}` },
    },
  ).toString();
  const link = /https?:\/\/\S+\/admin\/set-password\/\S+/.exec(printed)?.[0];
  if (!link) throw new Error(`no set-password link in: ${printed}`);
  return new URL(link).pathname;
}

/** `npm run staff:reset` against a test server's database: the path of the printed set-password link. */
export function resetStaff(email: string, extra: string[] = [], serverPort = port): string {
  const printed = execFileSync(process.execPath, ['src/server/staff/cli/reset-staff.ts', '--email', email, ...extra], {
    env: { ...process.env, ...testEnvironment, DATABASE_URL: `sqlite:${databaseFor(serverPort)}` },
  }).toString();
  const link = /https?:\/\/\S+\/admin\/set-password\/\S+/.exec(printed)?.[0];
  if (!link) throw new Error(`no set-password link in: ${printed}`);
  return new URL(link).pathname;
}

/** The code an authenticator app shows for `secret`, one step ahead (the step used to turn it on is spent). */
export function totpCode(secret: string, ahead = 0): string {
  const totp = new TOTP({ algorithm: 'SHA1', digits: 6, period: 30, secret: Secret.fromBase32(secret) });
  return totp.generate({ timestamp: Date.now() + ahead * 30_000 });
}

export async function setPassword(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel('New password').fill(PASSWORD);
  await page.getByLabel('Confirm the password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password is set.')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
}

export async function signIn(page: Page, email: string, code?: () => string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the back office' })).toBeVisible();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  // One form: the code goes with the password (the server never says "now the code").
  if (code) await page.getByLabel('Six-digit code').fill(code());
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

export async function openFromNav(page: Page, name: string, heading = name) {
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page);
}
