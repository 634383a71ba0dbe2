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
}

/** The id of the JSON script element the server writes the identity into. */
export const SHOP_CONFIG_ELEMENT_ID = 'shop-config';
