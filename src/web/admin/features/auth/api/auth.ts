import type { StaffForgotPassword, StaffSetPassword, StaffSignIn } from '../../../../../contract/admin/staff.ts';
import { requestJson } from '../../../../lib/api.ts';

/** POST /api/admin/sign-in: e-mail, password and, with two-factor sign-in on, the code. */
export function staffSignIn(body: StaffSignIn): Promise<{ ok: true }> {
  return requestJson('/api/admin/sign-in', { method: 'POST', body: JSON.stringify(body) });
}

/** POST /api/admin/forgot-password: the same answer whatever the address; a link is e-mailed to a member. */
export function staffForgotPassword(body: StaffForgotPassword): Promise<{ ok: true }> {
  return requestJson('/api/admin/forgot-password', { method: 'POST', body: JSON.stringify(body) });
}

/** POST /api/admin/set-password with the single-use link's token. */
export function setStaffPassword(body: StaffSetPassword): Promise<{ ok: true }> {
  return requestJson('/api/admin/set-password', { method: 'POST', body: JSON.stringify(body) });
}
