import { chromium } from '@playwright/test';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const errors: string[] = [];
for (const [name, path, width, height] of [
  ['home', '/home', 1280, 2200],
  ['search', '/search?t=2010&k=dhol', 1280, 1100],
  ['product', '/products/student-tabla-set', 1280, 1300],
  ['home-mobile', '/home', 390, 1400],
  ['search-mobile', '/search', 390, 900],
] as const) {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`${name}: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`${name}: ${e.message}`));
  await page.goto(`http://localhost:3302${path}`);
  await page.waitForTimeout(1200);
  await page.screenshot({ path: `/tmp/${name}.png` });
  await page.close();
}
console.log(errors.join('\n') || 'no console errors');
await browser.close();
