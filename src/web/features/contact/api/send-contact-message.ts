import type { z } from 'zod';
import type { okSchema } from '../../../../contract/accounts.ts';
import type { ContactRequest } from '../../../../contract/contact.ts';
import { requestJson } from '../../../lib/api.ts';

/** POST /api/contact: the enquiry is kept, sent to the shop, and acknowledged to the sender. */
export function sendContactMessage(request: ContactRequest): Promise<z.infer<typeof okSchema>> {
  return requestJson('/api/contact', { method: 'POST', body: JSON.stringify(request) });
}
