import type { Kysely } from 'kysely';
import type { ContactRequest } from '../../contract/contact.ts';
import type { ShopIdentity } from '../../contract/shop.ts';
import type { Database } from '../db/schema.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import { emailKeyOf } from '../orders/email-key.ts';
import { insertContactMessage } from './contact.repository.ts';

/** Acknowledgements one address gets in a day, whoever sends the enquiries (docs/rules.md#mail). */
export const ACKNOWLEDGEMENTS_PER_ADDRESS_PER_DAY = 3;
const DAY_MS = 86_400_000;

/**
 * A contact enquiry: kept, sent to the shop, and acknowledged to the sender (docs/rules.md#mail).
 * The acknowledgement goes to whatever address was typed, so it says only the shop's own words
 * (no name, no message: it would carry anyone's text, links included, from the shop's address),
 * and one address gets a few a day. The answer is the same whether or not it went, so a stranger
 * learns nothing about who else wrote.
 */
export function createContactService(
  db: Kysely<Database>,
  options: {
    mailer: Mailer;
    /** The shop's identity as the owner's settings stand now; read before the transaction opens. */
    shop: () => Promise<Pick<ShopIdentity, 'name' | 'email'>>;
    /** The shop's own address, for the acknowledgement's link to it. */
    publicUrl: string;
    counters: RateLimitRepository;
    clock?: () => Date;
  },
) {
  const clock = options.clock ?? (() => new Date());

  /** The shop's copy: Reply answers the sender. Their name is on one line (the contract says so). */
  const shopCopy = (shop: Pick<ShopIdentity, 'email'>, request: ContactRequest): MailMessage => ({
    to: shop.email,
    replyTo: request.email,
    subject: `Enquiry from ${request.name}`,
    paragraphs: [`From: ${request.name} <${request.email}>, telephone ${request.phone}`, request.message],
  });

  const acknowledgement = (shop: Pick<ShopIdentity, 'name'>, to: string): MailMessage => ({
    to,
    subject: `We have your message - ${shop.name}`,
    template: {
      name: 'notice',
      data: {
        heading: 'We have your message',
        paragraphs: [
          `Thank you for contacting ${shop.name}. We have received your message and will reply as soon as we can, usually within one working day.`,
        ],
        buttons: [{ label: `Visit ${shop.name}`, url: `${options.publicUrl}/` }],
        after: ['If you did not write to us, someone else gave your address: you can ignore this e-mail.'],
      },
    },
  });

  return {
    async submit(request: ContactRequest): Promise<{ ok: boolean }> {
      const now = clock();
      // Counted for every enquiry, so the work does not differ with the answer.
      const { hits } = await options.counters.hit(
        `contact-acknowledgements ${emailKeyOf(request.email)}`,
        DAY_MS,
        now.getTime(),
      );
      const shop = await options.shop();
      // The enquiry and its mail are kept together: neither is lost without the other.
      await db.transaction().execute(async (trx) => {
        await insertContactMessage(trx, { ...request, email: request.email.toLowerCase(), at: now.toISOString() });
        await options.mailer.sendWith(trx, shopCopy(shop, request));
        if (hits <= ACKNOWLEDGEMENTS_PER_ADDRESS_PER_DAY)
          await options.mailer.sendWith(trx, acknowledgement(shop, request.email));
      });
      options.mailer.wake();
      return { ok: true };
    },
  };
}

export type ContactService = ReturnType<typeof createContactService>;
