import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { chromium } from '@playwright/test';
import { csrfTokenFor } from '../src/server/http/csrf.ts';
import { uploadPhotos } from './photos.ts';

/**
 * Page benchmark (npm run bench:pages): Lighthouse, mobile profile, on Debian's Chromium, for the
 * home, search and a product page of the built app served in production mode. Prints the four
 * category scores and each page's JavaScript transfer size on first load. `--photos` first uploads
 * a camera-sized photo to every product (three to the product measured), as staff would.
 * Then each page again on a slow phone (issue 32: 600 ms latency, 50 KB/s each way, a CPU four
 * times slower, 390 px wide, nothing cached): when it is first painted, and when it is interactive,
 * that is when the page's code has started and answers taps (layout.tsx's "shop:started" mark;
 * /boot.js keeps taps made before then and answers them at that moment).
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '3778' },
    runs: { type: 'string', default: '1' },
    photos: { type: 'boolean', default: false },
  },
});
const port = Number(values.port);
const base = `http://localhost:${port}`;

if (!existsSync('dist/web/index.html')) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(1);
}

const dir = mkdtempSync(join(tmpdir(), 'shop-pages-'));
const databaseUrl = `sqlite:${join(dir, 'shop.db')}`;
const server = spawn(process.execPath, ['src/server/main.ts'], {
  env: {
    ...process.env,
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    PORT: String(port),
    PUBLIC_URL: base,
    SESSION_SECRET: 'p'.repeat(32),
    PAYPAL_MODE: 'sandbox',
    PAYPAL_BUSINESS_EMAIL: 'payments@shop.example',
    PAYPAL_INTEGRATION: 'standard',
    OPAYO_MODE: 'test',
    DATABASE_URL: databaseUrl,
    MAIL_OUTBOX_DIR: join(dir, 'outbox'),
  },
  stdio: ['ignore', 'inherit', 'inherit'],
});

async function waitForServer(): Promise<void> {
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${base}/api/product-types`)).ok) return;
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the server did not start');
}

interface Row {
  page: string;
  scores: Record<string, number>;
  scriptKb: number;
  /** The same scripts' gzip size, from the precompressed files (the budget is stated in gzip). */
  scriptGzipKb: number;
  lcpMs: number;
}

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--no-first-run',
  ],
});
// The server's SESSION_SECRET signs CSRF tokens; this is one for a browser without a session (neither
// the customer's nor the staff cookie: two empty values, as the server reads them).
const token = csrfTokenFor('p'.repeat(32), [undefined, undefined]);
try {
  await waitForServer();
  const search = await (
    await fetch(`${base}/api/search`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${token}`, 'x-xsrf-token': token },
      body: '{"typeId":[2035],"pageSize":1}',
    })
  ).json();
  const measured = (search as { results: Array<{ id: number; urlKey: string }> }).results[0];
  const productPath = `/products/${measured?.urlKey}`;
  if (values.photos) {
    const started = performance.now();
    const made = await uploadPhotos(databaseUrl, { extra: measured ? [measured.id] : [] });
    console.log(`uploaded ${made} photos in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    // What the server has cached of the catalogue ages out first (CATALOG_CACHE_SECONDS, SEARCH_CACHE_SECONDS).
    await new Promise((resolve) => setTimeout(resolve, 11_000));
  }
  const pages = [
    // The home page's canonical address is the site's root (issue 31): Lighthouse marks a page whose
    // canonical link points to the root from another address.
    ['home', '/'],
    ['search', '/search?t=2010'],
    ['product', productPath],
  ] as const;
  const rows: Row[] = [];
  for (const [name, path] of pages) {
    let best: Row | undefined;
    for (let run = 0; run < Number(values.runs); run++) {
      const result = await lighthouse(`${base}${path}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
      });
      if (!result) throw new Error(`Lighthouse gave no result for ${path}`);
      const { categories, audits } = result.lhr;
      const requests =
        (
          audits['network-requests']?.details as
            { items?: Array<{ url: string; resourceType?: string; transferSize?: number }> } | undefined
        )?.items ?? [];
      const scripts = requests.filter((r) => r.resourceType === 'Script');
      const scriptBytes = scripts.reduce((sum, r) => sum + (r.transferSize ?? 0), 0);
      const gzipBytes = scripts.reduce((sum, r) => {
        const file = `dist/web${new URL(r.url).pathname}.gz`;
        return sum + (existsSync(file) ? statSync(file).size : (r.transferSize ?? 0));
      }, 0);
      const row: Row = {
        page: `${name} (${path})`,
        scores: Object.fromEntries(
          Object.entries(categories).map(([key, category]) => [key, Math.round((category.score ?? 0) * 100)]),
        ),
        scriptKb: scriptBytes / 1024,
        scriptGzipKb: gzipBytes / 1024,
        lcpMs: audits['largest-contentful-paint']?.numericValue ?? 0,
      };
      if (!best || (row.scores.performance ?? 0) > (best.scores.performance ?? 0)) best = row;
      if (process.env.BENCH_VERBOSE) {
        const metric = (id: string) => audits[id]?.displayValue ?? '';
        console.log(
          `  ${name}: FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, CLS ${metric('cumulative-layout-shift')}, SI ${metric('speed-index')}`,
        );
        for (const audit of Object.values(audits)) {
          if (audit.details?.type === 'opportunity' && (audit.numericValue ?? 0) > 50)
            console.log(`    ${audit.id}: ${audit.displayValue ?? ''}`);
        }
        const lcpElement = audits['largest-contentful-paint-element']?.details as any;
        console.log(
          '    LCP element:',
          JSON.stringify(
            lcpElement?.items?.[0]?.items?.[0]?.node?.snippet ?? lcpElement?.items?.[0]?.node?.snippet ?? '',
          ).slice(0, 200),
        );
      }
      const failing = Object.values(audits).filter(
        (audit) => audit.score !== null && audit.score < 0.9 && audit.scoreDisplayMode === 'binary',
      );
      for (const audit of failing) {
        console.log(`  ${name}: ${audit.id} - ${audit.title}`);
        // What it found, so a lost point can be traced without opening Lighthouse's report.
        const items = (audit.details as { items?: unknown[] } | undefined)?.items ?? [];
        for (const item of items.slice(0, 3)) console.log(`    ${JSON.stringify(item).slice(0, 300)}`);
      }
    }
    rows.push(best as Row);
  }
  console.log('\nLighthouse, mobile profile (simulated slow 4G, 4x CPU slowdown)\n');
  console.log(
    '| page | performance | accessibility | best practices | SEO | LCP | JS transferred (brotli) | JS gzip |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(
      `| ${row.page} | ${row.scores.performance} | ${row.scores.accessibility} | ${row.scores['best-practices']} | ${row.scores.seo} | ${(row.lcpMs / 1000).toFixed(1)} s | ${row.scriptKb.toFixed(1)} kB | ${row.scriptGzipKb.toFixed(1)} kB |`,
    );
  }
  console.log('\nA slow phone: 600 ms latency, 50 KB/s, 4x CPU slowdown, 390 px, cold cache\n');
  console.log('| page | first paint | interactive (taps answered) | received by then |');
  console.log('|---|---:|---:|---:|');
  const phone = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    for (const [name, path] of pages) {
      const context = await phone.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 600,
        downloadThroughput: 50 * 1024,
        uploadThroughput: 50 * 1024,
      });
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
      let received = 0;
      cdp.on('Network.loadingFinished', (event) => {
        received += event.encodedDataLength;
      });
      await page.goto(`${base}${path}`, { waitUntil: 'commit', timeout: 120_000 });
      await page.waitForSelector('html[data-hydrated]', { state: 'attached', timeout: 120_000 });
      const { paint, started } = await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
        started: performance.getEntriesByName('shop:started')[0]?.startTime ?? NaN,
      }));
      console.log(
        `| ${name} (${path}) | ${(paint / 1000).toFixed(1)} s | ${(started / 1000).toFixed(1)} s | ${(received / 1024).toFixed(0)} kB |`,
      );
      await context.close();
    }
  } finally {
    await phone.close();
  }
} finally {
  chrome.kill();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
}
