/** The shop's identity, from configuration (SHOP_*), shown in the layout and on the contact page. */
export interface ShopIdentity {
  name: string;
  phone: string;
  email: string;
  address: string;
  companyNumber: string;
  facebookUrl: string;
  instagramUrl: string;
  /** Where the shop's map is centred. */
  mapLatitude: number;
  mapLongitude: number;
  /** The ways to pay that the shop's payment page offers, whose marks the review page shows. */
  takes: PaymentMark[];
}

/** PayPal's own wallet, and cards (which PayPal's page takes too, and Opayo's alone). */
export type PaymentMark = 'paypal' | 'card';

/** What a shop paid through this provider takes. */
export function paymentMarksOf(provider: 'paypal' | 'opayo'): PaymentMark[] {
  return provider === 'opayo' ? ['card'] : ['paypal', 'card'];
}

/** The id of the JSON script element the server writes the identity into. */
export const SHOP_CONFIG_ELEMENT_ID = 'shop-config';
