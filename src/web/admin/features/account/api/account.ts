import type { z } from 'zod';
import type { totpSetupSchema } from '../../../../../contract/admin/staff.ts';
import { requestJson } from '../../../../lib/api.ts';

const post = <T>(path: string, body: unknown = {}) =>
  requestJson<T>(`/api/admin${path}`, { method: 'POST', body: JSON.stringify(body) });

/** A new secret to put in an authenticator app; two-factor is on only once a code from it is confirmed. */
export const setUpTotp = () => post<z.infer<typeof totpSetupSchema>>('/me/totp/setup');
export const enableTotp = (code: string) => post('/me/totp/enable', { code });
export const disableTotp = (password: string) => post('/me/totp/disable', { password });
export const signOutEverywhere = () => post('/sign-out-everywhere');
