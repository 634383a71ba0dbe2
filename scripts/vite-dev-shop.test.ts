import { describe, expect, it } from 'vitest';
import { devShopIdentity } from './vite-dev-shop.ts';

/** Under `npm run dev` (docs/rules.md#operations) the page carries the shop's identity as the server writes it. */
describe('the dev server page', () => {
  it("carries the shop's identity from the SHOP_* settings, escaped as the server writes it", () => {
    const plugin = devShopIdentity({ SHOP_NAME: 'Dhol </script> House', SHOP_PHONE: '0121 000 0000' });
    const transform = plugin.transformIndexHtml as (html: string) => string;
    const html = transform('<html><head><title>x</title></head><body></body></html>');
    const json = /<script id="shop-config" type="application\/json">(.*?)<\/script><\/head>/.exec(html)?.[1] ?? '';
    expect(JSON.parse(json)).toMatchObject({ name: 'Dhol </script> House', phone: '0121 000 0000' });
    expect(json).not.toContain('</script>');
    expect(plugin.apply).toBe('serve');
  });
});
