import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { fakeBuiltWebApp, sourceIndexHtml } from '../../../test/helpers/built-web-app.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { loadPageRenderer, type RenderPage } from '../http/server-render.ts';

/**
 * What a search engine reads in a page's head, as the server sends it: the web app's own index.html
 * (with its generic description) and the pages drawn by the renderer from the source. A search
 * engine takes the first description it meets, so a page has exactly one (issue 31, item 13).
 */
const source = fileURLToPath(new URL('../../web/entry-server.tsx', import.meta.url));
const publicUrl = 'https://shop.example';

function headOf(html: string): string {
  return html.slice(0, html.indexOf('</head>'));
}

function descriptionsIn(head: string): string[] {
  return [...head.matchAll(/<meta\b[^>]*\bname="description"[^>]*>/g)].map(
    (tag) => /content="([^"]*)"/.exec(tag[0])?.[1] ?? '',
  );
}

describe('page descriptions and canonical links as search engines read them', () => {
  let t: TestApp;
  let built: ReturnType<typeof fakeBuiltWebApp>;
  let product: { urlKey: string };
  const generic = /name="description"\s+content="([^"]*)"/.exec(sourceIndexHtml())?.[1] ?? '';

  beforeAll(async () => {
    built = fakeBuiltWebApp(sourceIndexHtml());
    const renderPage = (await loadPageRenderer(source)) as RenderPage;
    t = await createTestApp({ webRoot: built.root, renderPage, env: { PUBLIC_URL: publicUrl } });
    const make = catalogFactory(t.db);
    const type = await make.type({ name: 'Tablas' });
    const brand = await make.brand({ name: 'Taalwala' });
    product = await make.product({ typeId: type.id, brandId: brand.id, title: 'Copper Tabla Set' });
  });
  afterAll(async () => {
    await t.close();
    built.remove();
  });

  const head = async (url: string) => headOf((await t.app.inject({ url })).body);

  it('knows the generic description of index.html', () => {
    expect(generic).not.toBe('');
  });

  it.each([
    '/',
    '/home',
    'product',
    '/termsandconditions',
    '/returns',
    '/about',
    '/contact',
    '/search',
    '/search?k=tabla',
    '/shoppingcart',
    '/checkout',
    '/login',
    '/no-such-page',
  ])('gives %s one description', async (url) => {
    const descriptions = descriptionsIn(await head(url === 'product' ? `/products/${product.urlKey}` : url));
    expect(descriptions).toHaveLength(1);
  });

  it("gives the home page and a product page their own description, not the shop's generic one", async () => {
    expect(descriptionsIn(await head('/home'))).not.toContain(generic);
    expect(descriptionsIn(await head(`/products/${product.urlKey}`))).not.toContain(generic);
  });

  it('gives the terms their own description', async () => {
    const [description] = descriptionsIn(await head('/termsandconditions'));
    expect(description).toBeTruthy();
    expect(description).not.toBe(generic);
  });

  it('serves the home page at the site root, whose address is its canonical link, as the spec says', async () => {
    const root = await t.app.inject({ url: '/' });
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('Fast UK delivery');
    for (const url of ['/', '/home']) {
      const links = [...(await head(url)).matchAll(/<link\b[^>]*\brel="canonical"[^>]*>/g)].map((link) => link[0]);
      expect(links).toHaveLength(1);
      expect(links[0]).toContain(`href="${publicUrl}/"`);
    }
  });

  it('lists the site root, not /home, in the sitemap', async () => {
    const sitemap = (await t.app.inject({ url: '/sitemap.xml' })).body;
    expect(sitemap).toContain(`<loc>${publicUrl}/</loc>`);
    expect(sitemap).not.toContain(`<loc>${publicUrl}/home</loc>`);
  });
});
