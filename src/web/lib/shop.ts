import { SHOP_CONFIG_ELEMENT_ID } from '../../contract/page-data.ts';
import type { ShopIdentity } from '../../contract/shop.ts';

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
  // Rendered on the server there is no page to read yet (issue 18): the defaults.
  if (typeof document === 'undefined') return fallback;
  const element = document.getElementById(SHOP_CONFIG_ELEMENT_ID);
  try {
    return element?.textContent ? { ...fallback, ...(JSON.parse(element.textContent) as ShopIdentity) } : fallback;
  } catch {
    return fallback;
  }
})();

/**
 * On the server, the shop's identity from its configuration: there is no page to read it from, and
 * the page rendered there must say what the browser's will (src/web/entry-server.tsx).
 */
export function setServerShopIdentity(identity: ShopIdentity): void {
  Object.assign(shop, identity);
}

/** "Search for products | Raag Instruments": every page title ends with the shop's name. */
export function pageTitle(title: string): string {
  return title ? `${title} | ${shop.name}` : shop.name;
}

/**
 * Where the page is served from, for canonical links: the browser's address, or nothing while the
 * page is rendered on the server (issue 18), where a link relative to the site is written instead.
 */
export function siteOrigin(): string {
  return typeof window === 'undefined' ? '' : window.location.origin;
}

export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`;
}
