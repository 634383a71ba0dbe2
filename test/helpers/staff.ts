import { createStaffService } from '../../src/server/staff/staff.service.ts';
import type { TestApp } from './test-app.ts';

export const STAFF_PASSWORD = 'Harmonium-Reed-Board-7';
let made = 0;

/** The admin cookie a sign-in answer set, as a Cookie header. */
export function staffCookieOf(answer: { cookies: Array<{ name: string; value: string }> }): string {
  const cookie = answer.cookies.find((c) => c.name === 'admin');
  if (!cookie) throw new Error('no admin cookie was set');
  return `admin=${cookie.value}`;
}

/**
 * A staff member as the shop makes one: created (as `npm run staff:create` does), their password
 * chosen through the set-password link, and signed in. Answers their e-mail and session cookie.
 */
export async function staffMember(
  t: TestApp,
  /** The role's name: `owner`, `staff` (made by migration 0036) or one a test defined. */
  role: string,
  options: { signIn?: boolean } = {},
): Promise<{ id: number; email: string; cookie: string }> {
  const email = `${role.replace(/\W+/g, '-')}.${++made}.${Date.now()}@shop.example`;
  const service = createStaffService(t.db.kysely, {
    publicUrl: t.config.publicUrl,
    shopName: async () => 'Test shop',
  });
  const { member, setPasswordUrl } = await service.create({ email, name: `Test ${role} ${made}`, role });
  const token = setPasswordUrl.split('/').at(-1)!;
  const set = await t.app.inject({
    method: 'POST',
    url: '/api/admin/set-password',
    payload: { token, password: STAFF_PASSWORD, confirm: STAFF_PASSWORD },
    // A client of its own, as for the sign-in: a suite making many members stays under the per-client limit.
    remoteAddress: `10.8.${made % 250}.${(made * 7) % 250}`,
  });
  if (set.statusCode !== 200) throw new Error(`set-password answered ${set.statusCode}: ${set.body}`);
  if (options.signIn === false) return { id: member.id, email, cookie: '' };
  const signedIn = await t.app.inject({
    method: 'POST',
    url: '/api/admin/sign-in',
    payload: { email, password: STAFF_PASSWORD },
    remoteAddress: `10.9.${made % 250}.${(made * 7) % 250}`,
  });
  if (signedIn.statusCode !== 200) throw new Error(`sign-in answered ${signedIn.statusCode}: ${signedIn.body}`);
  return { id: member.id, email, cookie: staffCookieOf(signedIn) };
}
