import { z } from 'zod';
import { emailField, requiredText } from './fields.ts';
import { messages } from './messages.ts';

/** POST /api/contact body, and the Contact Us form's rules (docs/rules.md#pages-and-routes). */
export const contactRequestSchema = z.object({
  email: emailField(messages.contact.email, messages.contact.emailFormat),
  name: requiredText(messages.contact.name, 100),
  phone: requiredText(messages.contact.phone, 30),
  message: requiredText(messages.contact.message, 5000),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;
