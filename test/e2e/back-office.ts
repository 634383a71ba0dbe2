import { execFileSync } from 'node:child_process';
import type { Page } from '@playwright/test';
import { expect, expectNoAxeViolations } from './fixtures.ts';
import { databaseFor } from './outbox-path.ts';

/** Signing staff in to the back office as a person does, for the browser tests. */

const port = Number(process.env.E2E_PORT ?? 3555);
export const STAFF_PASSWORD = 'Ledger-Tabla-Harmonium-7';

/** `npm run staff:create` against the test server's database: the path of the printed set-password link. */
export function createOwner(email: string): string {
  const printed = execFileSync(
    process.execPath,
    ['src/server/staff/cli/create-staff.ts', '--email', email, '--role', 'owner', '--name', 'Asha Owner'],
    { env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${databaseFor(port)}` } },
  ).toString();
  const link = /https?:\/\/\S+\/admin\/set-password\/\S+/.exec(printed)?.[0];
  if (!link) throw new Error(`no set-password link in: ${printed}`);
  return new URL(link).pathname;
}

export async function setPassword(page: Page, path: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Choose your password' })).toBeVisible();
  await expectNoAxeViolations(page);
  await page.getByLabel('New password').fill(STAFF_PASSWORD);
  await page.getByLabel('Confirm the password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Set password' }).click();
  await expect(page.getByText('Your password is set.')).toBeVisible();
  await page.getByRole('link', { name: 'Sign in' }).click();
}

export async function signIn(page: Page, email: string, code?: () => string) {
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in to the back office' })).toBeVisible();
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (code) {
    await page.getByLabel('Six-digit code').fill(code());
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  await expect(page.getByRole('heading', { level: 1, name: 'Dashboard' })).toBeVisible();
}

/** Opens a page from the back office's nav; its heading takes the focus and axe finds nothing. */
export async function openFromNav(page: Page, name: string, heading = name) {
  await page.getByRole('navigation', { name: 'Back office' }).getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
  await page.waitForLoadState('networkidle');
  await expectNoAxeViolations(page);
}
