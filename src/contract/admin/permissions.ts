import { z } from 'zod';
import { isPlainLine } from '../fields.ts';

/**
 * What a member of staff may do in the back office (issue 37 item 2, docs/back-office.md#permissions).
 * A role is a set of these; the built-in owner role holds them all. Which permission each admin
 * route needs is one table on the server (src/server/staff/admin-access.ts), sent to the back office
 * with the member's own permissions, so the app hides what the server would refuse.
 */
export const permissions = [
  'dispatch',
  'refund',
  'cancel',
  'catalogue',
  'pricing',
  'customers',
  'reports',
  'staff',
  'settings',
] as const;
export type Permission = (typeof permissions)[number];
export const permissionSchema = z.enum(permissions);

/** Each permission's name and what it allows, in the words the role editor and the README use. */
export const permissionDescriptions: Record<Permission, { label: string; allows: string }> = {
  dispatch: {
    label: 'Dispatch orders',
    allows:
      'See orders and their packing slips; make, print and cancel shipping labels; dispatch, mark ready for collection, collected or delivered; correct the delivery address; add notes.',
  },
  refund: {
    label: 'Refund',
    allows: 'See orders; refund them in whole or part; handle returns (authorise, receive, refuse, refund).',
  },
  cancel: { label: 'Cancel', allows: 'See orders and cancel those not yet dispatched.' },
  catalogue: {
    label: 'Catalogue and stock',
    allows:
      'Products, photos, product types, brands, packaging, stock levels and adjustments, and the products CSV export and import.',
  },
  pricing: {
    label: 'Prices, vouchers and delivery',
    allows: 'Vouchers, delivery methods and their prices, and the countries delivered to.',
  },
  customers: {
    label: 'Customers and GDPR',
    allows:
      "See customers and their orders; export a customer's data and erase a customer (GDPR); revoke the link to a customer's order page.",
  },
  reports: {
    label: 'Reports',
    allows: 'The dashboard, the orders CSV, the VAT invoices and credit notes, and the audit log.',
  },
  staff: {
    label: 'Staff',
    allows:
      'Staff accounts and roles: add members, change their role, disable them, hand out set-password links, reset their two-factor sign-in.',
  },
  settings: {
    label: 'Settings',
    allows: "The shop's details (name, address, VAT number, e-mail sender...) and the low-stock threshold.",
  },
};

/**
 * Which permissions open a route, by `METHOD /path` under /api/admin (the path as the server
 * declares it, `:id` and all). `public`: anyone, signed in or not; `member`: any signed-in member;
 * otherwise any one of the listed permissions.
 */
export const routeAccessSchema = z.union([z.literal('public'), z.literal('member'), z.array(permissionSchema).min(1)]);
export type RouteAccess = z.infer<typeof routeAccessSchema>;
export const accessTableSchema = z.record(z.string(), routeAccessSchema);
export type AccessTable = z.infer<typeof accessTableSchema>;

/** May a member holding `held` call `METHOD /path`, by the table the server sent? */
export function mayCall(table: AccessTable, held: readonly Permission[], route: string): boolean {
  const access = table[route];
  if (access === undefined) return false;
  if (access === 'public' || access === 'member') return true;
  return access.some((permission) => held.includes(permission));
}

/** Letters of other scripts that read as Latin ones, so "ownеr" (a Cyrillic е) is seen for "owner". */
const LOOKALIKES: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  ԝ: 'w',
  ѡ: 'w',
  ո: 'n',
  г: 'r',
  ο: 'o',
  ν: 'v',
  ω: 'w',
};
const readsAs = (name: string) =>
  [...name.normalize('NFKC').toLowerCase()].map((letter) => LOOKALIKES[letter] ?? letter).join('');

const roleName = z
  .string()
  .trim()
  .min(1, 'Please enter a name')
  .max(60, 'Please keep the name under 60 characters')
  .refine(isPlainLine, 'Please write the name on one line, without special characters')
  // The built-in role's own name is refused by the database; one that only looks like it, here.
  .refine((name) => name.toLowerCase() === 'owner' || readsAs(name) !== 'owner', 'That name reads as the owner role’s');

/** A role as the role editor shows it. `builtIn`: the owner role, which holds everything and cannot change. */
export const staffRoleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  permissions: z.array(permissionSchema),
  builtIn: z.boolean(),
  /** How many members hold it. */
  members: z.number().int(),
});
export type StaffRoleView = z.infer<typeof staffRoleSchema>;
export const staffRoleListSchema = z.array(staffRoleSchema);

export const staffRoleInputSchema = z.object({
  name: roleName,
  permissions: z.array(permissionSchema).max(permissions.length),
});
export type StaffRoleInput = z.input<typeof staffRoleInputSchema>;
export const roleIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });
