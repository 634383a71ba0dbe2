import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, expectNoAxeViolations, test } from './fixtures.ts';
import { outboxFor } from './outbox-path.ts';

/**
 * The local inbox (/dev/inbox, outside production without SMTP) on a phone: a message's links are
 * as long as a reset token makes them, and neither the list nor the message may be wider than
 * the window (a walk-through on a phone had to scroll sideways to read one), nor is an address
 * written without a space to break at.
 */
/** As the mail program writes a body: "=" escaped, lines broken softly within 76 characters. */
function quotedPrintable(text: string): string {
  const escaped = text.replaceAll('=', '=3D');
  const lines: string[] = [];
  // A soft break never splits an escape: each piece ends before a "=" of one.
  for (let rest = escaped; rest.length > 0;) {
    let cut = Math.min(72, rest.length);
    const escapeStart = rest.lastIndexOf('=', cut - 1);
    if (cut < rest.length && escapeStart > cut - 3) cut = escapeStart;
    lines.push(rest.slice(0, cut));
    rest = rest.slice(cut);
  }
  return lines.join('=\r\n');
}

test('the local inbox and a message with a long link fit a phone', async ({ page }) => {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto('/dev/inbox');
  const outbox = outboxFor(Number(new URL(page.url()).port));
  mkdirSync(outbox, { recursive: true });
  const link = `http://localhost/reset-password?token=${'A1b2C3d4E5'.repeat(12)}&then=%2Faccount%2Forders%2F100042`;
  const file = `${new Date().toISOString().replace(/[:.]/g, '-')}-0badc0de.eml`;
  writeFileSync(
    join(outbox, file),
    [
      // As long as the browser tests' own addresses (a name, a run's number): no space to break at.
      'To: a.customer.with.a.long.address.1795937199161@example.com',
      'Subject: Reset your password',
      `Date: ${new Date().toUTCString()}`,
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      quotedPrintable(`Choose a new password here: ${link}`),
      '',
    ].join('\r\n'),
  );
  const fitsTheWindow = () =>
    page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

  await page.goto('/dev/inbox');
  await expect(page.getByRole('link', { name: link })).toBeVisible();
  expect(await fitsTheWindow()).toBe(true);

  await page.goto(`/dev/inbox/${file}`);
  await expect(page.getByRole('heading', { name: 'Reset your password' })).toBeVisible();
  await expect(page.getByText(link)).toBeVisible();
  expect(await fitsTheWindow()).toBe(true);
  await expectNoAxeViolations(page);
});
