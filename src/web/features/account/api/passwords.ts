import type { z } from 'zod';
import type {
  changePasswordSchema,
  forgotPasswordSchema,
  okSchema,
  resetPasswordSchema,
  resetResponseSchema,
} from '../../../../contract/accounts.ts';
import { requestJson } from '../../../lib/api.ts';

type PasswordAnswer = z.infer<typeof resetResponseSchema>;

/** POST /api/forgot-password: the same answer whether or not the address is registered. */
export function requestPasswordReset(request: z.infer<typeof forgotPasswordSchema>): Promise<z.infer<typeof okSchema>> {
  return requestJson('/api/forgot-password', { method: 'POST', body: JSON.stringify(request) });
}

/** POST /api/reset-password with the e-mailed token and the new password twice. */
export function resetPassword(request: z.infer<typeof resetPasswordSchema>): Promise<PasswordAnswer> {
  return requestJson('/api/reset-password', { method: 'POST', body: JSON.stringify(request) });
}

/** POST /api/account/password, for the signed-in customer. */
export function changePassword(request: z.infer<typeof changePasswordSchema>): Promise<PasswordAnswer> {
  return requestJson('/api/account/password', { method: 'POST', body: JSON.stringify(request) });
}
