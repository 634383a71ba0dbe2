import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
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
  let t: TestApp;
  let failing: TestApp;
  const warnings: string[] = [];
  let product: { id: number; urlKey: string };
  /** The addresses the renderer was asked to draw. */
  const renders: string[] = [];

  beforeAll(async () => {
    webRoot = `${mkdtempSync(join(tmpdir(), 'shop-web-'))}/`;
    mkdirSync(join(webRoot, 'assets'));
    writeFileSync(
      join(webRoot, 'index.html'),
      '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
    );
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
  });
  afterAll(async () => {
    await t.close();
    await failing.close();
    rmSync(webRoot, { recursive: true, force: true });
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

  it('draws the 404 page for a path that is no page, with its 404 status', async () => {
    const response = await t.app.inject({ url: '/no-such-page' });
    expect(response.statusCode).toBe(404);
    expect(rootOf(response.body)).toContain('OOPS! NOTHING WAS FOUND');
  });

  it.each(['/shoppingcart', '/checkout-details', '/account-home', '/login', '/payment-declined', '/search?k=tabla'])(
    "leaves %s to the browser (the shopper's own, or, for now, the search page)",
    async (url) => {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('<div id="root"></div>');
    },
  );

  it('draws a page once while its data stays the same, and afresh once the product changes', async () => {
    const url = `/products/${product.urlKey}?from=memo`;
    const first = await t.app.inject({ url });
    const again = await t.app.inject({ url });
    expect(renders.filter((drawn) => drawn === url)).toHaveLength(1);
    expect(again.body).toBe(first.body);

    await t.db.kysely.updateTable('products').set({ title: 'Brass Tabla Set' }).where('id', '=', product.id).execute();
    const changed = await t.app.inject({ url });
    expect(renders.filter((drawn) => drawn === url)).toHaveLength(2);
    expect(rootOf(changed.body)).toContain('Brass Tabla Set');
  });

  it('draws a page asked for several times at once only once', async () => {
    const url = '/about?from=crowd';
    const answers = await Promise.all([1, 2, 3, 4].map(() => t.app.inject({ url })));
    expect(answers.map((answer) => rootOf(answer.body))).toEqual(Array(4).fill(rootOf(answers[0]?.body ?? '')));
    expect(renders.filter((drawn) => drawn === url)).toHaveLength(1);
  });

  it('still serves a page the renderer fails on, for the browser to draw, and says so in the log', async () => {
    const response = await failing.app.inject({ url: '/about' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('<div id="root"></div>');
    expect(warnings.join('\n')).toContain('page not rendered on the server');
  });
});
