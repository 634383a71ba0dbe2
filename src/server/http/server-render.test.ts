import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { fakeBuiltWebApp } from '../../../test/helpers/built-web-app.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { loadPageRenderer, type RenderPage } from './server-render.ts';

/**
 * The server draws the storefront's public pages into the page it sends
 * (docs/decisions/0021-server-rendering.md), with the renderer the build makes from
 * src/web/entry-server.tsx (here the source itself), and the data it writes into the page.
 */
const source = fileURLToPath(new URL('../../web/entry-server.tsx', import.meta.url));

function rootOf(html: string): string {
  return /<div id="root">([\s\S]*)<\/div><\/body>/.exec(html)?.[1] ?? '';
}

describe('pages drawn on the server', () => {
  let webRoot: string;
  let built: ReturnType<typeof fakeBuiltWebApp>;
  let t: TestApp;
  let failing: TestApp;
  let slow: TestApp;
  /** The slow renderer draws nothing until the test opens this gate. */
  let openGate = (): void => undefined;
  let gate = Promise.resolve();
  const warnings: string[] = [];
  let product: { id: number; urlKey: string };
  /** The addresses the renderer was asked to draw. */
  const renders: string[] = [];

  beforeAll(async () => {
    built = fakeBuiltWebApp();
    webRoot = built.root;
    const real = (await loadPageRenderer(source)) as RenderPage;
    const renderPage: RenderPage = (...args) => {
      renders.push(args[0]);
      return real(...args);
    };
    t = await createTestApp({ webRoot, renderPage, env: { SHOP_NAME: 'Bina Music' } });
    const make = catalogFactory(t.db);
    const type = await make.type({ name: 'Tablas' });
    const brand = await make.brand({ name: 'Taalwala' });
    product = await make.product({
      typeId: type.id,
      brandId: brand.id,
      title: 'Copper Tabla <b>Set</b>',
      stocks: [{ price: 24_999, stock: 3 }],
    });
    failing = await createTestApp({
      webRoot,
      renderPage: () => Promise.reject(new Error('the renderer broke')),
      env: { LOG_LEVEL: 'warn' },
      logStream: new Writable({
        write(chunk: Buffer, _encoding, done) {
          warnings.push(chunk.toString('utf8'));
          done();
        },
      }),
    });
    slow = await createTestApp({
      webRoot,
      renderPage: (location) => gate.then(() => ({ body: `<p>drawn at ${location}</p>`, head: '' })),
    });
  });
  afterAll(async () => {
    await t.close();
    await failing.close();
    await slow.close();
    built.remove();
  });

  it('draws a product page whole, with the product from the catalogue and its markup as text', async () => {
    const response = await t.app.inject({ url: `/products/${product.urlKey}` });
    expect(response.statusCode).toBe(200);
    const root = rootOf(response.body);
    expect(root).toContain('Copper Tabla &lt;b&gt;Set&lt;/b&gt;');
    expect(root).toContain('249.99');
    expect(root).toContain('In Stock');
    // Written by the shop's own configuration, as the browser will draw it.
    expect(root).toContain('Bina Music');
  });

  it.each([
    ['/about', 'About Us'],
    ['/contact', 'CONTACT US'],
    ['/termsandconditions', 'Terms Of Use'],
    ['/home', 'Fast UK delivery'],
  ])('draws %s with its content', async (url, content) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(rootOf(response.body)).toContain(content);
  });

  it.each([
    ['/about', 'About Us | Bina Music', '/about'],
    ['/termsandconditions', 'Terms And Conditions | Bina Music', '/termsandconditions'],
    ['/search?t=1', 'Search for products | Bina Music', '/search'],
  ])('gives %s its own title and canonical link, as the page names itself', async (url, title, canonical) => {
    const response = await t.app.inject({ url });
    const head = response.body.slice(0, response.body.indexOf('</head>'));
    expect(head.match(/<title[^>]*>([^<]*)<\/title>/g)).toEqual([`<title data-server-head>${title}</title>`]);
    const links = [...head.matchAll(/<link [^>]*rel="canonical"[^>]*>/g)].map((link) => link[0]);
    expect(links).toHaveLength(1);
    expect(links[0]).toContain(`href="${t.config.publicUrl}${canonical}"`);
  });

  it("keeps a product page's own head: one title, one description, one canonical link", async () => {
    const response = await t.app.inject({ url: `/products/${product.urlKey}` });
    const head = response.body.slice(0, response.body.indexOf('</head>'));
    expect(head.match(/<title/g)).toHaveLength(1);
    expect(head.match(/<meta [^>]*name="description"/g)).toHaveLength(1);
    expect(head.match(/rel="canonical"/g)).toHaveLength(1);
  });

  it('draws the 404 page for a path that is no page, with its 404 status', async () => {
    const response = await t.app.inject({ url: '/no-such-page' });
    expect(response.statusCode).toBe(404);
    expect(rootOf(response.body)).toContain('OOPS! NOTHING WAS FOUND');
    expect(response.body).toContain('<title data-server-head>404 Page Not Found | Bina Music</title>');
    // The menus and footer from the catalogue, as on every page, not their placeholders.
    expect(rootOf(response.body)).toContain('>Tablas</a>');
  });

  it('draws the search page with the results of the search in its address', async () => {
    const response = await t.app.inject({ url: '/search?k=copper+tabla' });
    expect(response.statusCode).toBe(200);
    const root = rootOf(response.body);
    expect(root).toContain('1 PRODUCTS FOUND');
    expect(root).toContain(`href="/products/${product.urlKey}"`);
    // The keyword box holds the search, as the browser would show it.
    expect(root).toMatch(/value="copper tabla"/);
  });

  it('draws a search once for the same filters, whatever else is in its query string', async () => {
    await t.app.inject({ url: '/search?k=tabla&t=1' });
    const before = renders.filter((drawn) => drawn.startsWith('/search')).length;
    for (const url of [
      '/search?k=tabla&t=1&gclid=1',
      '/search?utm_source=mail&k=tabla&t=1',
      '/search/?k=tabla&t=1&x=2',
    ]) {
      const response = await t.app.inject({ url });
      expect(rootOf(response.body)).toContain('PRODUCTS FOUND');
    }
    expect(renders.filter((drawn) => drawn.startsWith('/search')).length).toBe(before);
    expect(renders.filter((drawn) => /gclid|utm|x=/.test(drawn))).toEqual([]);
  });

  it.each([
    ['/shoppingcart', 'Your Cart'],
    ['/checkout-details', 'Order Delivery Details'],
    ['/account-home', 'My Account'],
    ['/login', 'type="password"'],
    ['/payment-declined', 'Payment Cancelled'],
  ])("draws %s, the shopper's own, as the shop around its loading state", async (url, title) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(200);
    const root = rootOf(response.body);
    // The header, menu and footer, drawn from the catalogue; the page itself is the browser's.
    expect(root).toContain('Skip to content');
    expect(root).toContain('Tablas');
    expect(root).toMatch(/role="status"[^>]*>.*Loading…/s);
    expect(root).not.toContain(title);
  });

  it('draws a page whose address is a secret without the secret', async () => {
    const before = renders.length;
    const response = await t.app.inject({ url: '/reset-password/s3cr3t-t0ken' });
    expect(rootOf(response.body)).toContain('Loading…');
    expect(renders.slice(before)).toEqual(['/reset-password/token']);
    expect(response.body).not.toContain('s3cr3t');
  });

  const drawnAt = (location: string) => renders.filter((drawn) => drawn === location).length;

  it('draws a page once while its data stays the same, and afresh once the product changes', async () => {
    const path = `/products/${product.urlKey}`;
    const first = await t.app.inject({ url: path });
    const before = drawnAt(path);
    const again = await t.app.inject({ url: path });
    expect(drawnAt(path)).toBe(before);
    expect(again.body).toBe(first.body);

    await t.db.kysely.updateTable('products').set({ title: 'Brass Tabla Set' }).where('id', '=', product.id).execute();
    const changed = await t.app.inject({ url: path });
    expect(drawnAt(path)).toBe(before + 1);
    expect(rootOf(changed.body)).toContain('Brass Tabla Set');
  });

  it('draws a page asked for several times at once only once', async () => {
    // A brand renamed: every page's data (the brands list) changes, so /about is drawn afresh.
    await t.db.kysely.updateTable('brands').set({ name: 'Taalwala Works' }).execute();
    const before = drawnAt('/about');
    const answers = await Promise.all([1, 2, 3, 4].map(() => t.app.inject({ url: '/about' })));
    expect(new Set(answers.map((answer) => rootOf(answer.body))).size).toBe(1);
    expect(drawnAt('/about')).toBe(before + 1);
  });

  it('draws a page once whatever its query string, which none of these pages reads', async () => {
    await t.app.inject({ url: '/contact' });
    const before = drawnAt('/contact');
    for (const url of ['/contact?gclid=1', '/contact?gclid=2', '/contact/?utm_source=mail']) {
      const response = await t.app.inject({ url });
      expect(rootOf(response.body)).toContain('CONTACT US');
    }
    expect(drawnAt('/contact')).toBe(before);
    expect(renders.some((drawn) => drawn.includes('?') && !drawn.startsWith('/search?'))).toBe(false);
  });

  it('draws every path that is no page as one 404 page', async () => {
    const before = drawnAt('/page-not-found');
    for (const url of ['/nope-1', '/nope-2', '/wp-login.php', '/assets/gone-123.js']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(404);
      expect(rootOf(response.body)).toContain('OOPS! NOTHING WAS FOUND');
    }
    expect(renders.filter((drawn) => drawn.startsWith('/nope') || drawn.includes('wp-login'))).toEqual([]);
    // Drawn once at most (the catalogue may have changed since the last 404 drawn), not once a path.
    expect(drawnAt('/page-not-found')).toBeLessThanOrEqual(before + 1);
    expect(drawnAt('/page-not-found')).toBeGreaterThan(0);
  });

  it.each(['/ShoppingCart', '/Checkout-Confirm', '/%63heckout-confirm', '/ACCOUNT-HOME/'])(
    'leaves %s to the browser: the router takes it for a page that depends on the shopper',
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
    },
  );

  it('draws a product page whose address ends in a slash, with the product', async () => {
    const response = await t.app.inject({ url: `/products/${product.urlKey}/` });
    expect(response.statusCode).toBe(200);
    expect(rootOf(response.body)).toContain('In Stock');
    expect(rootOf(response.body)).not.toContain('Loading');
  });

  it('leaves a page asked for in another case to the browser, drawing nothing for it', async () => {
    const before = renders.length;
    for (const url of ['/ABOUT', `/Products/${product.urlKey}`, '/Products/x1', '/Products/x2', '/Home']) {
      const response = await t.app.inject({ url });
      expect(response.body).toContain('<div id="root"></div>');
    }
    expect(renders.length).toBe(before);
  });

  it('leaves a product that does not exist to the browser, which sends the shopper to search', async () => {
    const response = await t.app.inject({ url: '/products/no-such-tabla' });
    expect(response.statusCode).toBe(404);
    expect(response.body).toContain('<div id="root"></div>');
  });

  it('draws the 404 page for a product that does not exist, for a browser without scripts (issue 32)', async () => {
    const response = await t.app.inject({ url: '/products/no-such-tabla' });
    expect(response.statusCode).toBe(404);
    // Beside the empty root the app starts in: a browser with scripts never draws a <noscript>.
    const shown = /<div id="root"><\/div><noscript>([\s\S]*)<\/noscript><\/body>/.exec(response.body)?.[1] ?? '';
    expect(shown).toContain('OOPS! NOTHING WAS FOUND');
    // In the shop's layout, with the menus and footer from the catalogue.
    expect(shown).toContain('>Tablas</a>');
    expect(shown).toContain('<footer');
    expect(response.body).toContain('<title data-server-head>404 Page Not Found | Bina Music</title>');
  });

  it('writes catalogue text with $ patterns as it is, in the page and in its data', async () => {
    await t.db.kysely
      .updateTable('products')
      .set({ title: "Tabla $` $' $& $$ Set" })
      .where('id', '=', product.id)
      .execute();
    const response = await t.app.inject({ url: `/products/${product.urlKey}` });
    expect(response.body.match(/<div id="root">/g)).toHaveLength(1);
    expect(rootOf(response.body)).toContain('Tabla $` $&#x27; $&amp; $$ Set');
    const data = /<script id="shop-page-data" type="application\/json">(.*?)<\/script>/s.exec(response.body)?.[1];
    expect(JSON.stringify(JSON.parse(data ?? 'null'))).toContain("Tabla $` $' $& $$ Set");
  });

  it("draws a page afresh in a new year (the footer's copyright)", async () => {
    await t.app.inject({ url: '/termsandconditions' });
    const before = drawnAt('/termsandconditions');
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(new Date().getFullYear() + 1, 0, 1, 12));
      const response = await t.app.inject({ url: '/termsandconditions' });
      expect(drawnAt('/termsandconditions')).toBe(before + 1);
      expect(rootOf(response.body)).toContain(String(new Date().getFullYear()));
    } finally {
      vi.useRealTimers();
    }
  });

  it('draws at most four pages at once: the others, while they wait, are left to the browser', async () => {
    gate = new Promise<void>((resolve) => (openGate = resolve));
    const urls = ['/home', '/about', '/contact', '/termsandconditions', '/nope-a'];
    const asked = urls.map((url) => slow.app.inject({ url }));
    // Four drawings wait at the gate; the fifth page is answered meanwhile, for the browser to draw.
    const first = await Promise.race(asked);
    expect(first.body).toContain('<div id="root"></div>');
    openGate();
    const answers = await Promise.all(asked);
    const drawn = answers.filter((answer) => rootOf(answer.body).startsWith('<p>drawn at '));
    expect(drawn).toHaveLength(4);
    expect(answers.filter((answer) => answer.body.includes('<div id="root"></div>'))).toHaveLength(1);
  });

  it('still serves a page the renderer fails on, for the browser to draw, and says so in the log', async () => {
    const response = await failing.app.inject({ url: '/about' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(warnings.join('\n')).toContain('page not rendered on the server');
  });
});
