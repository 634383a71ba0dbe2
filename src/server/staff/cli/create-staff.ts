import { parseArgs } from 'node:util';
import { newStaffSchema } from '../../../contract/admin/staff.ts';
import { loadConfig } from '../../config.ts';
import { openDatabase } from '../../db/database.ts';
import { migrateToLatest } from '../../db/migrate.ts';
import { BadRequestError, RefusedError } from '../../errors.ts';
import { createStaffService } from '../staff.service.ts';

/**
 * npm run staff:create -- --email owner@example.com --role owner [--name "Asha Patel"]
 * Creates a back-office account and prints its single-use link to choose a password (no default
 * password ever). This is how the first owner is made; later ones are added in the back office.
 */
const { values } = parseArgs({
  options: { email: { type: 'string' }, role: { type: 'string', default: 'staff' }, name: { type: 'string' } },
});
const parsed = newStaffSchema.safeParse({
  email: values.email,
  role: values.role,
  name: values.name ?? values.email?.split('@')[0] ?? '',
});
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`--${issue.path.join('.')}: ${issue.message}`);
  console.error(
    'Usage: npm run staff:create -- --email someone@example.com --role owner|staff|<a role defined on the Roles page> [--name "Their Name"]',
  );
  process.exit(2);
}
const config = loadConfig();
const db = openDatabase(config.databaseUrl);
try {
  await migrateToLatest(db);
  const staff = createStaffService(db.kysely, {
    publicUrl: config.publicUrl,
    shopName: async () => config.shop.name,
  });
  const { member, setPasswordUrl } = await staff.create(parsed.data);
  console.log(`Created ${member.role} ${member.email}. To choose a password (once, within 72 hours), open:`);
  console.log(setPasswordUrl);
} catch (error) {
  // An address in use, or a role nobody defined (`--role` names one: owner, staff, or one made on the Roles page).
  if (!(error instanceof RefusedError) && !(error instanceof BadRequestError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
} finally {
  await db.destroy();
}
