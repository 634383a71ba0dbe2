import { z } from 'zod';

/** The shop's identity (the owner's settings, issue 37), shown in the layout and on the contact page. */
export const shopIdentitySchema = z.object({
  name: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  companyNumber: z.string(),
  facebookUrl: z.string(),
  instagramUrl: z.string(),
  /** Where the shop's map is centred. */
  mapLatitude: z.number(),
  mapLongitude: z.number(),
  /** The ways to pay that the shop's payment page offers, whose marks the review page shows. */
  takes: z.array(z.enum(['paypal', 'card'])),
});
export type ShopIdentity = z.infer<typeof shopIdentitySchema>;

/** PayPal's own wallet, and cards (which PayPal's page takes too, and Opayo's alone). */
export type PaymentMark = 'paypal' | 'card';

/** What a shop paid through this provider takes. */
export function paymentMarksOf(provider: 'paypal' | 'opayo'): PaymentMark[] {
  return provider === 'opayo' ? ['card'] : ['paypal', 'card'];
}
