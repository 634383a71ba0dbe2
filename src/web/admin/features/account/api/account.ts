import type { z } from 'zod';
import type { recoveryCodesSchema, totpSetupSchema } from '../../../../../contract/admin/staff.ts';
import { requestJson } from '../../../../lib/api.ts';

const post = <T>(path: string, body: unknown = {}) =>
  requestJson<T>(`/api/admin${path}`, { method: 'POST', body: JSON.stringify(body) });

/** A new secret to put in an authenticator app; two-factor is on only once a code from it is confirmed. */
export const setUpTotp = () => post<z.infer<typeof totpSetupSchema>>('/me/totp/setup');
type RecoveryCodes = z.infer<typeof recoveryCodesSchema>;
/** Turns it on; answers the ten recovery codes, shown once. */
export const enableTotp = (code: string) => post<RecoveryCodes>('/me/totp/enable', { code });
/** Ten new recovery codes in place of the old ones; the password is asked again. */
export const renewRecoveryCodes = (password: string) => post<RecoveryCodes>('/me/recovery-codes', { password });
export const disableTotp = (password: string) => post('/me/totp/disable', { password });
export const signOutEverywhere = () => post('/sign-out-everywhere');
