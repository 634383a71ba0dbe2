import type { z } from 'zod';
import type { okSchema, Registration, registrationResponseSchema } from '../../../../contract/accounts.ts';
import { requestJson } from '../../../lib/api.ts';

/** POST /api/register: the answer's errorCode (0 when registered) decides what the page says. */
export function register(registration: Registration): Promise<z.infer<typeof registrationResponseSchema>> {
  return requestJson('/api/register', { method: 'POST', body: JSON.stringify(registration) });
}

/** POST /api/activate with the single-use token from the e-mailed link; a used or unknown one throws. */
export function activateAccount(token: string): Promise<z.infer<typeof okSchema>> {
  return requestJson('/api/activate', { method: 'POST', body: JSON.stringify({ token }) });
}
