import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { fakeBuiltWebApp } from '../../../test/helpers/built-web-app.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * `npm run dev` (WEB_DEV_SERVER=true): the shop's server hosts Vite's development server on its own
 * port (dev-web.ts), so a developer gets the pages drawn on the server from the source, the API, and
 * hot reload, from one process.
 */
async function listening(t: TestApp): Promise<string> {
  await t.server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(t.server.server.address() as AddressInfo).port}`;
}

/** The messages Vite's hot-reload socket sends the browser, as they come. */
function hotReloadMessages(origin: string): { messages: Array<{ type: string }>; socket: WebSocket } {
  const socket = new WebSocket(origin.replace('http', 'ws'), 'vite-hmr');
  const messages: Array<{ type: string }> = [];
  socket.addEventListener('message', (event) => messages.push(JSON.parse(String(event.data)) as { type: string }));
  return { messages, socket };
}

/** A page's script tags (their opening tags), which is what these tests look at. */
function scriptsOf(html: string): string[] {
  return html.match(/<script[^>]*>/g) ?? [];
}

function nonceOfPolicy(policy: string | null, directive: string): string | undefined {
  const sources = new RegExp(`(?:^|;)\\s*${directive}\\s([^;]*)`).exec(policy ?? '')?.[1] ?? '';
  return /'nonce-([^']+)'/.exec(sources)?.[1];
}

describe('npm run dev: Vite hosted by the shop', () => {
  let t: TestApp | undefined;
  let socket: WebSocket | undefined;
  afterEach(async () => {
    socket?.close();
    await t?.close();
  });

  it('answers the pages drawn on the server from the source, the app’s modules, the back office and the API on one port', async () => {
    // An earlier build lies in the folder (its manifest names hashed chunks), and the page cache is
    // on, as `npm run dev` has it by default: neither may reach a page made from the source.
    const built = fakeBuiltWebApp();
    mkdirSync(join(built.root, '.vite'));
    writeFileSync(
      join(built.root, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/shop-old.js', isEntry: true },
        'features/home/home-page.tsx': { file: 'assets/home-page-old.js', css: ['assets/home-page-old.css'] },
      }),
    );
    onTestFinished(built.remove);
    t = await createTestApp({
      demo: true,
      webRoot: built.root,
      env: { WEB_DEV_SERVER: 'true', SHOP_NAME: 'Bina Music', PAGE_CACHE_SECONDS: '60' },
    });
    const origin = await listening(t);

    const home = await fetch(`${origin}/home`);
    expect(home.status).toBe(200);
    const html = await home.text();
    // Drawn on the server: the home page's sections are in #root, not left to the browser.
    const root = /<div id="root">([\s\S]*)<\/div>/.exec(html)?.[1] ?? '';
    expect(root).toContain('<main');
    expect(root).toMatch(/href="\/products\//);
    // Vite's client and the app's source module, and the shop's identity as the server writes it.
    expect(scriptsOf(html)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/ src="\/@vite\/client"/),
        expect.stringMatching(/ src="\/main\.tsx"/),
      ]),
    );
    expect(html).toContain('"name":"Bina Music"');

    // The inline React Refresh preamble runs under the page's own nonce, which differs per page.
    const scriptNonce = nonceOfPolicy(home.headers.get('content-security-policy'), 'script-src');
    expect(scriptNonce).toBeDefined();
    expect(scriptsOf(html).filter((tag) => !tag.includes(' src=') && !tag.includes('application/json'))).toEqual([
      `<script type="module" nonce="${scriptNonce}">`,
    ]);
    expect(nonceOfPolicy(home.headers.get('content-security-policy'), 'style-src')).toBe(scriptNonce);
    expect(html).not.toContain('/assets/');
    // Each page its own nonce, however often it is asked for (a kept page would repeat one).
    const nonces = [scriptNonce];
    for (let asked = 0; asked < 3; asked++) {
      const again = await fetch(`${origin}/home`);
      nonces.push(nonceOfPolicy(again.headers.get('content-security-policy'), 'script-src'));
    }
    expect(new Set(nonces).size).toBe(4);

    const main = await fetch(`${origin}/main.tsx`);
    expect(main.status).toBe(200);
    expect(main.headers.get('content-type')).toMatch(/javascript/);
    expect(await main.text()).toContain('hydrateRoot');

    const admin = await fetch(`${origin}/admin/orders`);
    expect(admin.status).toBe(200);
    expect(admin.headers.get('x-robots-tag')).toBe('noindex, nofollow');
    expect(scriptsOf(await admin.text())).toEqual(
      expect.arrayContaining([expect.stringMatching(/ src="\/admin\/main\.tsx"/)]),
    );

    const brands = await fetch(`${origin}/api/brands`);
    expect(brands.status).toBe(200);
    expect(await brands.json()).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Mehta & Sons' })]));

    const hot = hotReloadMessages(origin);
    socket = hot.socket;
    await vi.waitFor(() => expect(hot.messages.map((message) => message.type)).toContain('connected'));

    // `node --watch` restarts the server on a change to its code while a tab is open: the open
    // hot-reload socket must not hold the server's closing up (start.ts gives it 15 s, then fails).
    const closing = t.close();
    t = undefined;
    // A close held by the socket would never end, and the test fails by its timeout.
    await closing;
  });

  describe('a change to the source', () => {
    const app = mkdtempSync(join(tmpdir(), 'dev-web-'));
    afterAll(() => rmSync(app, { recursive: true, force: true }));

    it('shows on the next page drawn, and the browser is told', async () => {
      // A small app of its own (the shop's source is not edited by a test): a page drawn on the
      // server from a module the browser's code loads too.
      writeFileSync(
        join(app, 'vite.config.mjs'),
        `export default { root: ${JSON.stringify(app)}, logLevel: 'silent' };`,
      );
      writeFileSync(
        join(app, 'index.html'),
        '<!doctype html><html><head><title>x</title></head><body><div id="root"></div><script type="module" src="./main.ts"></script></body></html>',
      );
      writeFileSync(join(app, 'words.ts'), "export const words = 'first words';\n");
      writeFileSync(join(app, 'main.ts'), "import { words } from './words.ts';\nconsole.log(words);\n");
      writeFileSync(
        join(app, 'entry-server.tsx'),
        "import { words } from './words.ts';\nexport async function renderPage() { return { body: `<p>${words}</p>`, head: '' }; }\n",
      );
      t = await createTestApp({
        env: { WEB_DEV_SERVER: 'true' },
        devWeb: { configFile: join(app, 'vite.config.mjs') },
      });
      const origin = await listening(t);
      expect(await (await fetch(`${origin}/about`)).text()).toContain('<p>first words</p>');
      // The browser loads the module, so Vite's watcher follows it and tells the browser of a change.
      expect((await fetch(`${origin}/words.ts`)).status).toBe(200);
      const hot = hotReloadMessages(origin);
      socket = hot.socket;
      await vi.waitFor(() => expect(hot.messages.map((message) => message.type)).toContain('connected'));

      writeFileSync(join(app, 'words.ts'), "export const words = 'second words';\n");

      await vi.waitFor(
        async () => expect(await (await fetch(`${origin}/about`)).text()).toContain('<p>second words</p>'),
        { timeout: 10_000, interval: 100 },
      );
      await vi.waitFor(
        () => expect(hot.messages.map((message) => message.type)).toEqual(expect.arrayContaining(['full-reload'])),
        { timeout: 10_000, interval: 100 },
      );
    });
  });
});
