import type { StaffSetPassword, StaffSignIn } from '../../../../../contract/admin/staff.ts';
import { requestJson } from '../../../../lib/api.ts';

/** POST /api/admin/sign-in; a 401 with TOTP_CODE_REQUIRED asks for the code, sent again with it. */
export function staffSignIn(body: StaffSignIn): Promise<{ ok: true }> {
  return requestJson('/api/admin/sign-in', { method: 'POST', body: JSON.stringify(body) });
}

/** POST /api/admin/set-password with the single-use link's token. */
export function setStaffPassword(body: StaffSetPassword): Promise<{ ok: true }> {
  return requestJson('/api/admin/set-password', { method: 'POST', body: JSON.stringify(body) });
}
