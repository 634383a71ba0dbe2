import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A stand-in for the built web app (`npm run build`'s dist/web) in a temp folder: an index.html with
 * an empty #root and one hashed asset, for tests of what the server writes into pages.
 */
export function fakeBuiltWebApp(
  indexHtml = '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
): { root: string; remove(): void } {
  const root = `${mkdtempSync(join(tmpdir(), 'shop-web-'))}/`;
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), indexHtml);
  writeFileSync(join(root, 'assets', 'app-abc123.js'), 'console.log(1)');
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** The web app's own index.html (src/web/index.html), whose head the build keeps: its title and generic description. */
export function sourceIndexHtml(): string {
  return readFileSync(new URL('../../src/web/index.html', import.meta.url), 'utf8');
}
