import { z } from 'zod';
import { isPlainLine } from '../fields.ts';

/**
 * The shop's settings an owner changes in the back office (DESIGN.md §11, issue 37): its identity,
 * the sender and alert addresses of its mail, its VAT number, map and the low-stock threshold.
 * One schema: the route's validation, the service's type and the settings form's resolver.
 */
const PLAIN = 'Please write this on one line, without special characters';
const httpUrl = z.url({ protocol: /^https?$/, error: 'Please enter a web address starting http:// or https://' });

export const shopSettingsSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Please enter the shop’s name')
    .max(80, 'At most 80 characters')
    .refine(isPlainLine, PLAIN),
  phone: z
    .string()
    .trim()
    .min(1, 'Please enter a phone number')
    .max(40, 'At most 40 characters')
    .refine(isPlainLine, PLAIN),
  /** The shop's address on its pages, and the sender of its e-mails. */
  email: z.email('Please enter an e-mail address'),
  /** One line, its parts separated by commas: a document prints one a line. */
  address: z
    .string()
    .trim()
    .min(1, 'Please enter the postal address')
    .max(300, 'At most 300 characters')
    .refine(isPlainLine, PLAIN)
    // A document prints a part a line: more would run a VAT invoice onto pages of address.
    .refine((address) => address.split(',').length <= 8, 'At most 8 parts, separated by commas'),
  companyNumber: z
    .string()
    .trim()
    .min(1, 'Please enter the company number')
    .max(20, 'At most 20 characters')
    .refine(isPlainLine, PLAIN),
  vatNumber: z
    .string()
    .transform((typed) => typed.replaceAll(' ', '').toUpperCase())
    .pipe(z.string().regex(/^GB(\d{9}|\d{12})$/, 'Please enter a UK VAT number: GB and 9 or 12 digits')),
  /** Where the shop is told of its new paid orders. */
  ordersEmail: z.email('Please enter an e-mail address'),
  facebookUrl: httpUrl,
  instagramUrl: httpUrl,
  mapLatitude: z
    .number({ error: 'Please enter a latitude' })
    .min(-90, 'Between -90 and 90')
    .max(90, 'Between -90 and 90'),
  mapLongitude: z
    .number({ error: 'Please enter a longitude' })
    .min(-180, 'Between -180 and 180')
    .max(180, 'Between -180 and 180'),
  lowStockThreshold: z
    .number({ error: 'Please enter a number of units' })
    .int('Please enter a whole number of units')
    .min(0, 'The threshold cannot be below 0')
    .max(10_000, 'At most 10,000 units'),
});
export type ShopSettings = z.output<typeof shopSettingsSchema>;
export type ShopSettingsInput = z.input<typeof shopSettingsSchema>;

/** The settings as the back office is answered them (stored values: the VAT number already normalised). */
export const shopSettingsAnswerSchema = shopSettingsSchema.extend({ vatNumber: z.string() });
