import { z } from 'zod';
import { emailField, isPhoneNumber, oneLineText, requiredText } from './fields.ts';
import { messages } from './messages.ts';

/** POST /api/contact body, and the Contact Us form's rules (docs/rules.md#pages-and-routes). */
export const contactRequestSchema = z.object({
  email: emailField(messages.contact.email, messages.contact.emailFormat),
  name: oneLineText(messages.contact.name, 100, messages.contact.oneLine, messages.fieldNames.name),
  // A number someone at the shop can ring back, as people write one (fields.ts).
  phone: oneLineText(messages.contact.phone, 30, messages.contact.oneLine, messages.fieldNames.contactNumber).refine(
    // (A blank one or one of two lines has its own message.)
    // eslint-disable-next-line no-control-regex -- control characters are the one-line rule's
    (phone) => phone.trim() === '' || /[\u0000-\u001f\u007f]/.test(phone) || isPhoneNumber(phone.trim()),
    messages.contact.phoneFormat,
  ),
  message: requiredText(messages.contact.message, 5000, messages.fieldNames.message),
});
export type ContactRequest = z.infer<typeof contactRequestSchema>;
