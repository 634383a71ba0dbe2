import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCalls } from '../../../test/helpers/catalogue-admin.ts';
import { catalogFactory } from '../../../test/helpers/catalog-factory.ts';
import { fakeBuiltWebApp } from '../../../test/helpers/built-web-app.ts';
import { manualClock } from '../../../test/helpers/clock.ts';
import { staffMember } from '../../../test/helpers/staff.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';
import { loadPageRenderer, type RenderPage } from './server-render.ts';

/**
 * A storefront page's whole answer is kept by the instance for PAGE_CACHE_SECONDS and may be kept
 * as long by a CDN (docs/decisions/0021-server-rendering.md): it is the same for every shopper, so
 * it sets no cookie, and an answer to a signed-in browser is marked private all the same.
 */
const SECONDS = 1;
const source = fileURLToPath(new URL('../../web/entry-server.tsx', import.meta.url));

function rootOf(html: string): string {
  return /<div id="root">([\s\S]*)<\/div><\/body>/.exec(html)?.[1] ?? '';
}

describe('pages kept for a few seconds', () => {
  let built: ReturnType<typeof fakeBuiltWebApp>;
  let t: TestApp;
  let uncached: TestApp;
  let product: { id: number; urlKey: string };
  const renders: string[] = [];
  let real: RenderPage;
  const clock = manualClock();

  beforeAll(async () => {
    built = fakeBuiltWebApp();
    real = (await loadPageRenderer(source)) as RenderPage;
    const renderPage: RenderPage = (...args) => {
      renders.push(args[0]);
      return real(...args);
    };
    t = await createTestApp({
      webRoot: built.root,
      renderPage,
      env: { PAGE_CACHE_SECONDS: String(SECONDS) },
      now: clock.now,
    });
    uncached = await createTestApp({ webRoot: built.root, renderPage });
    const make = catalogFactory(t.db);
    const type = await make.type({ name: 'Tablas' });
    const brand = await make.brand({ name: 'Taalwala' });
    product = await make.product({ typeId: type.id, brandId: brand.id, title: 'Copper Tabla Set' });
  });
  afterAll(async () => {
    await t.close();
    await uncached.close();
    built.remove();
  });

  const setTitle = (title: string) =>
    t.db.kysely.updateTable('products').set({ title }).where('id', '=', product.id).execute();

  it('answers a page asked for again from its copy for its seconds, then from the catalogue again', async () => {
    const path = `/products/${product.urlKey}`;
    // Kept from the second time it is asked for.
    await t.app.inject({ url: path });
    expect(rootOf((await t.app.inject({ url: path })).body)).toContain('Copper Tabla Set');
    // Changed behind the shop's back (another instance's write): this one keeps its copy a while.
    await setTitle('Brass Tabla Set');
    expect(rootOf((await t.app.inject({ url: path })).body)).toContain('Copper Tabla Set');
    clock.advance(SECONDS * 1000);
    expect(rootOf((await t.app.inject({ url: path })).body)).toContain('Brass Tabla Set');
  });

  it('does not keep a page asked for once: a flood of addresses takes no room', async () => {
    await t.app.inject({ url: '/search?k=copper' });
    await setTitle('Copper Tabla Drum');
    expect(rootOf((await t.app.inject({ url: '/search?k=copper' })).body)).toContain('Copper Tabla Drum');
  });

  it('keeps one copy of a search page whatever else is in its query string', async () => {
    await t.app.inject({ url: '/search?k=tabla' });
    await t.app.inject({ url: '/search?k=tabla&utm_campaign=x' });
    await setTitle('Steel Tabla Set');
    for (const url of ['/search?k=tabla&gclid=1', '/search?utm_source=mail&k=tabla']) {
      const root = rootOf((await t.app.inject({ url })).body);
      expect(root).toContain('1 PRODUCTS FOUND');
      expect(root).not.toContain('Steel Tabla Set');
    }
    // Another keyword is another page.
    expect(rootOf((await t.app.inject({ url: '/search?k=steel' })).body)).toContain('Steel Tabla Set');
  });

  it('shows a back-office change made on this instance at once, though it kept the page', async () => {
    const kept = await createTestApp({ webRoot: built.root, renderPage: real, env: { PAGE_CACHE_SECONDS: '60' } });
    try {
      const make = catalogFactory(kept.db);
      const type = await make.type({ name: 'Dhols' });
      const brand = await make.brand({ name: 'Dholwala' });
      const dhol = await make.product({ typeId: type.id, brandId: brand.id, title: 'Bhangra Dhol' });
      const admin = adminCalls(kept, (await staffMember(kept, 'staff')).cookie);
      const path = `/products/${dhol.urlKey}`;
      await kept.app.inject({ url: path });
      await kept.app.inject({ url: path });
      // Kept: a change behind the shop's back does not show.
      await kept.db.kysely.updateTable('products').set({ title: 'Wedding Dhol' }).where('id', '=', dhol.id).execute();
      expect(rootOf((await kept.app.inject({ url: path })).body)).toContain('Bhangra Dhol');
      await admin('POST', `/products/${dhol.id}/status`, { status: 'archived' });
      expect((await kept.app.inject({ url: path })).statusCode).toBe(404);
      await admin('POST', `/products/${dhol.id}/status`, { status: 'published' });
      expect(rootOf((await kept.app.inject({ url: path })).body)).toContain('Wedding Dhol');
    } finally {
      await kept.close();
    }
  });

  it('does not keep a page it meant to draw and did not, nor lets a CDN keep it', async () => {
    let failing = true;
    const flaky = await createTestApp({
      webRoot: built.root,
      renderPage: (...args) => (failing ? Promise.reject(new Error('the renderer broke')) : real(...args)),
      env: { PAGE_CACHE_SECONDS: '60' },
    });
    try {
      // Asked for twice while the renderer fails: a page kept from its second asking would be this one.
      for (let i = 0; i < 2; i++) {
        const response = await flaky.app.inject({ url: '/about' });
        expect(response.body).toContain('<div id="root"></div>');
        expect(response.headers['cache-control']).toBe('no-cache');
      }
      failing = false;
      expect(rootOf((await flaky.app.inject({ url: '/about' })).body)).toContain('About Us');
    } finally {
      await flaky.close();
    }
  });

  it('does not keep a page served without its data, nor lets a CDN keep it', async () => {
    const broken = await createTestApp({ webRoot: built.root, renderPage: real, env: { PAGE_CACHE_SECONDS: '60' } });
    try {
      await broken.db.kysely.schema.alterTable('brands').renameTo('brands_gone').execute();
      for (let i = 0; i < 2; i++) {
        const response = await broken.app.inject({ url: '/about' });
        expect(response.statusCode).toBe(200);
        expect(response.body).not.toContain('shop-page-data');
        expect(response.headers['cache-control']).toBe('no-cache');
      }
      await broken.db.kysely.schema.alterTable('brands_gone').renameTo('brands').execute();
      expect((await broken.app.inject({ url: '/about' })).body).toContain('shop-page-data');
    } finally {
      await broken.close();
    }
  });

  it('tells a CDN it may keep a page for as long, and sets no cookie on it', async () => {
    for (const url of ['/home', '/about', `/products/${product.urlKey}`, '/search?t=1', '/contact?utm_source=mail']) {
      const response = await t.app.inject({ url });
      expect(response.statusCode).toBe(200);
      expect(response.headers['cache-control']).toBe(
        `public, max-age=0, s-maxage=${SECONDS}, stale-while-revalidate=${SECONDS}`,
      );
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it.each(['sid', 'admin'])('marks a page asked for with a %s session cookie private', async (cookie) => {
    const response = await t.app.inject({ url: '/about', headers: { cookie: `${cookie}=anything` } });
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(rootOf(response.body)).toContain('About Us');
  });

  it.each([
    '/reset-password/3f9a0c',
    '/verify-account/77b1e2',
    '/order-recovery/c0ffee',
    // PayPal's return echoes the order's code in the query.
    '/checkout-confirm?tx=9AB&cm=c0ffee',
    '/shoppingcart',
    '/account-home',
  ])("lets nothing keep %s, the shopper's own or a secret address", async (url) => {
    const response = await t.app.inject({ url });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  it('answers a request line with the whole address, or with a fragment, as the page it names', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address);
    const ask = (target: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () =>
          socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
        );
        const chunks: Buffer[] = [];
        socket.on('data', (chunk: Buffer) => chunks.push(chunk));
        socket.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        socket.on('error', reject);
      });
    const whole = await ask(`http://127.0.0.1:${port}/about`);
    expect(whole.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(whole).toContain('About Us');
    const fragment = await ask('/search?k=tabla#frag');
    expect(fragment).toContain('Search results for “tabla” |');
    expect(fragment).not.toContain('frag');
  });

  it('lets no CDN keep a 404, or any page when the cache is off', async () => {
    expect((await t.app.inject({ url: '/no-such-page' })).headers['cache-control']).toBe('no-cache');
    expect((await t.app.inject({ url: '/products/no-such-tabla' })).headers['cache-control']).toBe('no-cache');
    expect((await uncached.app.inject({ url: '/about' })).headers['cache-control']).toBe('no-cache');
  });

  it('gives a browser with no token one from the API, not from a page', async () => {
    const answer = await t.app.inject({ url: '/api/csrf-token' });
    expect(answer.statusCode).toBe(204);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(String(answer.headers['set-cookie'])).toMatch(/^XSRF-TOKEN=[\w-]+\.[\w-]+; Path=\//);
  });

  it('serves a page kept compressed as each browser asks, the same page each way', async () => {
    // (Asked for once before: a page is kept from its second asking.)
    await t.app.inject({ url: '/termsandconditions' });
    const url = '/termsandconditions';
    const plain = await t.app.inject({ url });
    const brotli = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
    const gzip = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(gzip.headers['content-encoding']).toBe('gzip');
    const { brotliDecompressSync, gunzipSync } = await import('node:zlib');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(plain.body);
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(plain.body);
  });
});
