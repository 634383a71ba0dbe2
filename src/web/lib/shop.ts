import { SHOP_CONFIG_ELEMENT_ID, type ShopIdentity } from '../../contract/shop.ts';

const fallback: ShopIdentity = {
  name: 'Raag Instruments',
  phone: '',
  email: '',
  address: '',
  companyNumber: '',
  facebookUrl: '',
  instagramUrl: '',
  mapLatitude: 52.5186,
  mapLongitude: -1.9946,
  takes: ['paypal', 'card'],
};

/** The shop's identity as the server wrote it into the page (SHOP_* configuration). */
export const shop: ShopIdentity = (() => {
  const element = document.getElementById(SHOP_CONFIG_ELEMENT_ID);
  try {
    return element?.textContent ? { ...fallback, ...(JSON.parse(element.textContent) as ShopIdentity) } : fallback;
  } catch {
    return fallback;
  }
})();

/** "Search for products | Raag Instruments": every page title ends with the shop's name. */
export function pageTitle(title: string): string {
  return title ? `${title} | ${shop.name}` : shop.name;
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}
