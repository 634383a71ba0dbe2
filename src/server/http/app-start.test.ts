import { describe, expect, it } from 'vitest';
import { startAppAfterFirstPaint } from './app-start.ts';

/**
 * A page drawn on the server gives its app's module script and preloads to /boot.js, which adds them
 * after the first paint (docs/decisions/0021-server-rendering.md).
 */
const built = `<!doctype html><html><head><title>Shop</title>
    <script type="module" crossorigin src="/assets/shop-AB12.js"></script>
    <link rel="modulepreload" crossorigin href="/assets/react-CD34.js">
    <link rel="modulepreload" crossorigin href="/assets/api-EF56.js">
    <link rel="stylesheet" crossorigin href="/assets/shop-GH78.css">
  <link rel="modulepreload" crossorigin href="/assets/home-page-IJ90.js"><link rel="stylesheet" crossorigin href="/assets/home-page-KL12.css"></head>
  <body><div id="root"><p>drawn</p></div></body></html>`;

describe('startAppAfterFirstPaint', () => {
  it('hands the module script and every preload to the boot script, and keeps the rest', () => {
    const page = startAppAfterFirstPaint(built);
    expect(page).not.toMatch(/type="module"|modulepreload/);
    expect(page).toContain(
      '<script async src="/boot.js" data-app="/assets/shop-AB12.js" data-preload="/assets/react-CD34.js /assets/api-EF56.js /assets/home-page-IJ90.js"></script></head>',
    );
    // The styles stay where they are: the first paint needs them.
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/shop-GH78.css">');
    expect(page).toContain('<link rel="stylesheet" crossorigin href="/assets/home-page-KL12.css">');
    expect(page).toContain('<div id="root"><p>drawn</p></div>');
  });

  it('leaves a page without exactly one module script as it is', () => {
    const none = built.replace(/<script[^>]*><\/script>/, '');
    expect(startAppAfterFirstPaint(none)).toBe(none);
    const two = built.replace('</head>', '<script type="module" crossorigin src="/assets/other.js"></script></head>');
    expect(startAppAfterFirstPaint(two)).toBe(two);
  });
});
