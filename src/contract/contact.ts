import { z } from 'zod';
import { emailField, oneLineText, requiredText } from './fields.ts';
import { messages } from './messages.ts';

/** POST /api/contact body, and the Contact Us form's rules (docs/rules.md#pages-and-routes). */
export const contactRequestSchema = z.object({
  email: emailField(messages.contact.email, messages.contact.emailFormat),
  name: oneLineText(messages.contact.name, 100, messages.contact.oneLine, messages.fieldNames.name),
  phone: oneLineText(messages.contact.phone, 30, messages.contact.oneLine, messages.fieldNames.contactNumber),
  message: requiredText(messages.contact.message, 5000, messages.fieldNames.message),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;
