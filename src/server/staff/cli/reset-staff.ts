import { parseArgs } from 'node:util';
import { emailField } from '../../../contract/fields.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { RefusedError } from '../../errors.ts';
import { createStaffService } from '../staff.service.ts';

/**
 * npm run staff:reset -- --email owner@example.com [--no-two-factor]
 * The way back in for a member locked out for good (a sole owner who forgot their password, or
 * lost the phone with their authenticator app and their recovery codes): prints a new single-use
 * link to choose a password, and with --no-two-factor turns their two-factor sign-in off. Whoever
 * can run this on the shop's machine owns the shop already; it is written to the audit log.
 */
const usage = 'Usage: npm run staff:reset -- --email someone@example.com [--no-two-factor]';
const { values } = parseArgs({
  options: { email: { type: 'string' }, 'two-factor': { type: 'boolean', default: true } },
  allowNegative: true,
});
const email = emailField('Please give the account’s e-mail address').safeParse(values.email);
if (!email.success) {
  console.error(`--email: ${email.error.issues[0]?.message ?? 'missing'}`);
  console.error(usage);
  process.exit(2);
}
const config = loadConfig();
const db = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(db);
  const staff = createStaffService(db.kysely, { publicUrl: config.publicUrl, shopName: async () => config.shop.name });
  const { member, setPasswordUrl } = await staff.resetAccess(email.data, { twoFactorOff: !values['two-factor'] });
  console.log(
    member.totpEnabled
      ? `${member.email}: two-factor sign-in stays on (add --no-two-factor to turn it off).`
      : `${member.email}: two-factor sign-in is off.`,
  );
  if (member.disabled) console.log('The account is disabled: an owner must enable it before it can sign in.');
  console.log('To choose a new password (once, within 72 hours; it signs them out everywhere), open:');
  console.log(setPasswordUrl);
} catch (error) {
  if (!(error instanceof RefusedError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
