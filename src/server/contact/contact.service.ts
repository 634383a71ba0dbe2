import type { Kysely } from 'kysely';
import type { ContactRequest } from '../../contract/contact.ts';
import type { ShopIdentity } from '../../contract/shop.ts';
import type { Database } from '../db/schema.ts';
import type { Mailer } from '../mail/mailer.ts';

/** A contact enquiry: kept, sent to the shop, and acknowledged to the sender (docs/rules.md#mail). */
export function createContactService(
  db: Kysely<Database>,
  options: { mailer: Mailer; shop: ShopIdentity; log?: (e: unknown) => void },
) {
  return {
    async submit(request: ContactRequest): Promise<{ ok: boolean }> {
      // Stored first: the enquiry is not lost if mail is down.
      await db
        .insertInto('contact_messages')
        .values({
          email: request.email.toLowerCase(),
          name: request.name,
          phone: request.phone,
          message: request.message,
          created_at: new Date().toISOString(),
        })
        .execute();
      try {
        await options.mailer.send({
          to: options.shop.email,
          subject: `Enquiry from ${request.name}`,
          paragraphs: [`From: ${request.name} <${request.email}>, telephone ${request.phone}`, request.message],
        });
        await options.mailer.send({
          to: request.email,
          subject: `We have your message, ${request.name}`,
          paragraphs: [
            `Dear ${request.name},`,
            `Thank you for contacting ${options.shop.name}. We have received your message and will reply as soon as we can, usually within one working day.`,
            `Your message:\n${request.message}`,
          ],
        });
      } catch (error) {
        options.log?.(error);
      }
      return { ok: true };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
