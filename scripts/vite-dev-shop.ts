import type { Plugin } from 'vite';
import { SHOP_CONFIG_ELEMENT_ID } from '../src/contract/shop.ts';
import { loadConfig } from '../src/server/config.ts';
import { scriptJson } from '../src/server/http/html.ts';

/**
 * `npm run dev` serves the page from Vite, not from the shop's server, which would write the shop's
 * identity (SHOP_* configuration) into it: this writes it in the same way, from the same
 * environment, so the footer, contact page and titles show the real shop while developing.
 */
export function devShopIdentity(environment: Record<string, string | undefined> = process.env): Plugin {
  return {
    name: 'raag-dev-shop-identity',
    apply: 'serve',
    transformIndexHtml(html) {
      const { shop } = loadConfig(environment);
      return html.replace(
        '</head>',
        `<script id="${SHOP_CONFIG_ELEMENT_ID}" type="application/json">${scriptJson(shop)}</script></head>`,
      );
    },
  };
}
