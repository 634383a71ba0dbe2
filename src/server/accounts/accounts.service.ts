import type { Kysely } from 'kysely';
import {
  registrationErrorCodes,
  type AccountAnswer,
  type AccountDetails,
  type AccountOrder,
  type Registration,
} from '../../contract/accounts.ts';
import { isEmailAddress } from '../../contract/fields.ts';
import type { Database } from '../db/schema.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { loadCountryNames, loadTitleIds } from '../basket/basket.repository.ts';
import { messages } from '../../contract/messages.ts';
import type { OrderPagePath } from '../order-page/order-page.service.ts';
import type { Mailer, MailMessage } from '../mail/mailer.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import {
  endTokens,
  findCustomerByEmail,
  findCustomerById,
  findLiveSession,
  insertCustomer,
  insertSession,
  markVerified,
  replaceTokens,
  ordersOf,
  revokeOtherSessions,
  saveProfile,
  revokeAllSessions,
  revokeSession,
  setPasswordHash,
  useToken,
} from './accounts.repository.ts';
import { decoyHash, hashPassword, passwordProblem, verifyPassword } from './passwords.ts';
import { hashToken, newToken } from './tokens.ts';

/** Registration, activation, sign-in, sessions and password reset (docs/rules.md#accounts-and-sessions). */

const VERIFY_HOURS = 24;
const RESET_HOURS = 1;
export const SESSION_DAYS = 30;

/** At most this many "someone tried to register" messages to one address in a day. */
const KNOWN_MAIL_MAX = 3;
const KNOWN_MAIL_WINDOW_MS = 24 * 3_600_000;

const hoursFrom = (now: Date, hours: number) => new Date(now.getTime() + hours * 3_600_000).toISOString();

export function createAccountsService(
  db: Kysely<Database>,
  options: {
    mailer: Mailer;
    publicUrl: string;
    /** The shop's name as the owner's settings stand now, read when a message is made. */
    shopName: () => Promise<string>;
    /** The shared counters, which limit the mail a registration of a known address sends its owner. */
    counters: Pick<RateLimitRepository, 'hit'>;
    clock?: () => Date;
    log?: (error: unknown) => void;
    /** An order's page path (order-page.service.ts); without it, no order links to a page. */
    orderPagePath?: OrderPagePath;
  },
) {
  const clock = options.clock ?? (() => new Date());

  /**
   * A new link: its token, which ends every earlier link of the same purpose
   * (docs/rules.md#accounts-and-sessions), and its mail, in one transaction, so a process that
   * dies in between cannot leave the customer with no working link and no mail (docs/rules.md#mail).
   */
  async function issueLink(
    customer: { id: number; email: string },
    purpose: 'verify' | 'reset',
    hours: number,
    message: (token: string) => Omit<MailMessage, 'to'>,
  ): Promise<void> {
    const token = newToken();
    const now = clock();
    await db.transaction().execute(async (trx) => {
      await replaceTokens(
        trx,
        { customerId: customer.id, purpose, hash: hashToken(token), expiresAt: hoursFrom(now, hours) },
        now.toISOString(),
      );
      await options.mailer.sendWith(trx, { to: customer.email, ...message(token) });
    });
    options.mailer.wake();
  }

  /** A verification link, in place of any earlier one (docs/rules.md#accounts-and-sessions). */
  async function sendVerificationLink(customer: { id: number; email: string; firstname: string; lastname: string }) {
    const shopName = await options.shopName();
    await issueLink(customer, 'verify', VERIFY_HOURS, (token) => ({
      subject: `Please confirm your e-mail address for ${shopName}`,
      template: {
        name: 'notice',
        data: {
          heading: 'Please confirm your e-mail address',
          greeting: `Dear ${customer.firstname} ${customer.lastname},`,
          paragraphs: ['Thank you for registering. Please confirm your e-mail address to activate your account.'],
          buttons: [{ label: 'Confirm my e-mail address', url: `${options.publicUrl}/verify-account/${token}` }],
          after: [
            `The link works once and for ${VERIFY_HOURS} hours. If you did not register, please ignore this message.`,
          ],
        },
      },
    }));
  }

  /**
   * A registration of an address that has an account already: its owner is told, with the way to
   * sign in or choose a new password, instead of the answer telling whoever registered. Limited
   * per recipient, so registrations cannot be used to fill someone's inbox; the answer is the same
   * whether or not the message goes.
   */
  async function tellOwnerOfRegistration(email: string): Promise<void> {
    const now = clock().getTime();
    const { hits } = await options.counters.hit(`register-known-mail ${email}`, KNOWN_MAIL_WINDOW_MS, now);
    if (hits > KNOWN_MAIL_MAX) return;
    const shopName = await options.shopName();
    const message = {
      to: email,
      subject: `${shopName}: someone tried to register with your address`,
      template: {
        name: 'notice',
        data: {
          heading: 'Someone tried to register with your address',
          greeting: 'Hello,',
          paragraphs: [
            `Someone, perhaps you, tried to register at ${shopName} with this e-mail address, which has an account already. No new account was made and nothing about yours has changed.`,
            'If it was you, you can sign in. If you have forgotten your password, or not yet confirmed your address, choose a new password.',
          ],
          buttons: [
            { label: 'Sign in', url: `${options.publicUrl}/login` },
            { label: 'Choose a new password', url: `${options.publicUrl}/forgotpassword` },
          ],
          after: ['If it was not you, you can ignore this message.'],
        },
      },
    } satisfies MailMessage;
    try {
      await options.mailer.send(message);
    } catch (error) {
      // The answer is the same whether or not the note could be queued.
      options.log?.(error);
    }
  }

  /** The customer, when the password is theirs; the same work whether or not the address is known. */
  async function checkedCustomer(username: string, password: string) {
    const customer = await findCustomerByEmail(db, username.trim().toLowerCase());
    const matches = await verifyPassword(password, customer?.password_hash ?? (await decoyHash));
    return customer && matches ? customer : undefined;
  }

  return {
    /**
     * POST /api/register: errorCode 0 to 3 (docs/rules.md#accounts-and-sessions); 0 sends the
     * verification link, or to an address with an account already, a note to its owner.
     */
    async register(input: Registration): Promise<{ errorCode: number }> {
      const email = input.email?.trim().toLowerCase() ?? '';
      const firstname = input.firstname?.trim() ?? '';
      const lastname = input.lastname?.trim() ?? '';
      const password = input.password ?? '';
      if (
        !input.titleId ||
        !(await loadTitleIds(db)).has(input.titleId) ||
        !isEmailAddress(email) ||
        !firstname ||
        !lastname ||
        !password ||
        !input.confirm
      ) {
        return { errorCode: registrationErrorCodes.missingDetails };
      }
      if (passwordProblem(password)) return { errorCode: registrationErrorCodes.invalidPassword };
      if (password !== input.confirm) return { errorCode: registrationErrorCodes.notConfirmed };
      // An address with an account is answered as a new one (the spec's code 4 told whoever asked
      // that it had one), after the same work: the password is hashed either way, and either way
      // one message is queued, to the address (docs/rules.md#accounts-and-sessions).
      const passwordHash = await hashPassword(password);
      const customerId = (await findCustomerByEmail(db, email))
        ? undefined
        : await insertCustomer(db, {
            email,
            title_id: input.titleId,
            firstname,
            lastname,
            password_hash: passwordHash,
            verified_at: null,
            created_at: clock().toISOString(),
          });
      // Undefined too when two registrations of one address came at the same moment and the other won.
      if (customerId === undefined) await tellOwnerOfRegistration(email);
      else await sendVerificationLink({ id: customerId, email, firstname, lastname });
      return { errorCode: registrationErrorCodes.ok };
    },

    /** POST /api/activate: a verification link works once, and only before it expires. */
    async activate(token: string): Promise<boolean> {
      const now = clock().toISOString();
      const customerId = await useToken(db, 'verify', hashToken(token), now);
      if (customerId === undefined) return false;
      await markVerified(db, customerId, now);
      return true;
    },

    /**
     * A new session for a verified customer with the right password. An unverified account is told
     * apart only after the right password (docs/rules.md#accounts-and-sessions); every other refusal is the same, after
     * the same work whether or not the address is known, so timing tells nothing either.
     */
    async signIn(
      username: string,
      password: string,
    ): Promise<{ token: string; customerId: number } | 'refused' | 'notActivated'> {
      const customer = await checkedCustomer(username, password);
      if (!customer) return 'refused';
      if (!customer.verified_at) return 'notActivated';
      const token = newToken();
      const now = clock();
      await insertSession(db, {
        hash: hashToken(token),
        customerId: customer.id,
        now: now.toISOString(),
        expiresAt: hoursFrom(now, SESSION_DAYS * 24),
      });
      return { token, customerId: customer.id };
    },

    /**
     * POST /api/resend-activation: a fresh verification link, which ends the earlier ones, for the
     * owner of an unverified account; it needs the password, so it tells strangers nothing.
     */
    async resendActivation(username: string, password: string): Promise<boolean> {
      const customer = await checkedCustomer(username, password);
      if (!customer) return false;
      if (!customer.verified_at) await sendVerificationLink(customer);
      return true;
    },

    async signOut(token: string): Promise<void> {
      await revokeSession(db, hashToken(token), clock().toISOString());
    },

    /** The customer a session token belongs to, while it is live. */
    async customerFor(token: string): Promise<number | undefined> {
      return (await findLiveSession(db, hashToken(token), clock().toISOString()))?.customer_id;
    },

    async whoAmI(customerId: number): Promise<{ firstname: string; lastname: string } | undefined> {
      const customer = await findCustomerById(db, customerId);
      return customer ? { firstname: customer.firstname, lastname: customer.lastname } : undefined;
    },

    /** GET /api/account: the signed-in customer's details and saved addresses. */
    async account(customerId: number): Promise<AccountAnswer> {
      const c = await findCustomerById(db, customerId);
      if (!c) throw new NotFoundError('No such account');
      const address = (p: 'billing' | 'delivery') => ({
        line1: c[`${p}_line1`],
        line2: c[`${p}_line2`],
        line3: c[`${p}_line3`],
        postcode: c[`${p}_postcode`],
        townCity: c[`${p}_town_city`],
        countryId: c[`${p}_country_id`],
      });
      return {
        titleId: c.title_id,
        firstname: c.firstname,
        lastname: c.lastname,
        email: c.email,
        contactNumber: c.contact_number,
        billingAddress: address('billing'),
        deliveryAddress: address('delivery'),
      };
    },

    /** PUT /api/account: saved for real (docs/rules.md#departures-from-the-original). */
    async saveAccount(customerId: number, details: AccountDetails): Promise<void> {
      // Only a title and countries the form offers: an order prefilled from these must be one the shop takes.
      if (!(await loadTitleIds(db)).has(details.titleId)) throw new BadRequestError(messages.address.title, 'titleId');
      const countries = await loadCountryNames(db);
      for (const which of ['billingAddress', 'deliveryAddress'] as const) {
        if (!countries.has(details[which].countryId)) {
          throw new BadRequestError(messages.address.country, `${which}.countryId`);
        }
      }
      const address = (a: AccountDetails['billingAddress']) => ({
        line1: a.line1,
        line2: a.line2,
        line3: a.line3 ?? '',
        postcode: a.postcode.toUpperCase(),
        townCity: a.townCity,
        countryId: a.countryId,
      });
      await saveProfile(db, customerId, {
        title_id: details.titleId,
        firstname: details.firstname,
        lastname: details.lastname,
        contact_number: details.contactNumber,
        billing: address(details.billingAddress),
        delivery: address(details.deliveryAddress),
      });
    },

    /** A new password needs the current one; every other session ends. */
    async changePassword(customerId: number, sessionToken: string, current: string, password: string, confirm: string) {
      const customer = await findCustomerById(db, customerId);
      if (!customer || !(await verifyPassword(current, customer.password_hash)))
        return { ok: false, errorCode: registrationErrorCodes.missingDetails };
      if (passwordProblem(password)) return { ok: false, errorCode: registrationErrorCodes.invalidPassword };
      if (password !== confirm) return { ok: false, errorCode: registrationErrorCodes.notConfirmed };
      await setPasswordHash(db, customerId, await hashPassword(password));
      const now = clock().toISOString();
      await revokeOtherSessions(db, customerId, hashToken(sessionToken), now);
      // A reset link sent before the change would undo it.
      await endTokens(db, customerId, 'reset', now);
      return { ok: true, errorCode: registrationErrorCodes.ok };
    },

    /** The customer's orders, newest first, with lines, totals and payment state. */
    async orders(customerId: number): Promise<AccountOrder[]> {
      const { orders, lines } = await ordersOf(db, customerId);
      return orders.map((o) => ({
        orderNumber: o.order_number,
        createdAt: o.created_at,
        status: o.status,
        transactionId: o.status === 'paid' ? o.transaction_id : null,
        itemsTotal: o.items_total,
        deliveryPrice: o.delivery_price,
        discountAmount: o.discount_amount,
        totalVat: o.total_vat,
        total: o.total_including_delivery,
        orderPagePath: options.orderPagePath?.(o) ?? null,
        lines: lines
          .filter((l) => l.order_id === o.id)
          .map((l) => ({ title: l.title, sizeName: l.size_name, quantity: l.quantity, lineTotal: l.line_total })),
      }));
    },

    /**
     * POST /api/forgot-password: the same answer, in the same time, whether or not the address is
     * registered. It answers before looking the address up: the look-up, the new link and the
     * queued mail happen after it (docs/rules.md#accounts-and-sessions; a slow mail server once
     * showed which addresses exist).
     */
    forgotPassword(email: string): void {
      options.mailer.sendInBackground(async () => {
        const customer = await findCustomerByEmail(db, email.trim().toLowerCase());
        if (!customer) return undefined;
        const shopName = await options.shopName();
        await issueLink(customer, 'reset', RESET_HOURS, (token) => ({
          subject: `Reset your ${shopName} password`,
          template: {
            name: 'notice',
            data: {
              heading: 'Choose a new password',
              greeting: `Dear ${customer.firstname} ${customer.lastname},`,
              paragraphs: ['To choose a new password for your account, use the button below.'],
              buttons: [{ label: 'Choose a new password', url: `${options.publicUrl}/reset-password/${token}` }],
              after: [
                `The link works once and for ${RESET_HOURS} hour. If you did not ask for it, you can ignore this message: your password has not changed.`,
              ],
            },
          },
        }));
        // Queued with its token, above.
        return undefined;
      });
    },

    /** POST /api/reset-password: a new password, and every session ended. */
    async resetPassword(token: string, password: string, confirm: string): Promise<{ ok: boolean; errorCode: number }> {
      if (passwordProblem(password)) return { ok: false, errorCode: registrationErrorCodes.invalidPassword };
      if (password !== confirm) return { ok: false, errorCode: registrationErrorCodes.notConfirmed };
      const now = clock().toISOString();
      const customerId = await useToken(db, 'reset', hashToken(token), now);
      if (customerId === undefined) return { ok: false, errorCode: registrationErrorCodes.missingDetails };
      await setPasswordHash(db, customerId, await hashPassword(password));
      // Resetting by e-mail also proves the address, so an unverified account becomes verified.
      await markVerified(db, customerId, now);
      await revokeAllSessions(db, customerId, now);
      return { ok: true, errorCode: registrationErrorCodes.ok };
    },
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
