import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/helpers/test-app.ts';
import { imageKinds } from './drawings.ts';

describe('product images', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves every kind and variant as SVG cached for a year', async () => {
    for (const kind of imageKinds) {
      for (const variant of [1, 8]) {
        const response = await t.app.inject({ method: 'GET', url: `/images/products/${kind}-${variant}.svg` });
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
        expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(response.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>$/);
      }
    }
  });

  it.each(['dhol-0.svg', 'dhol-9.svg', 'kazoo-1.svg', 'dhol-1.png', '..%2Fsecret'])(
    'answers 404 for %s',
    async (file) => {
      expect((await t.app.inject({ method: 'GET', url: `/images/products/${file}` })).statusCode).toBe(404);
    },
  );

  it('points every demo product image at a picture that exists', async () => {
    const { generateProduct, DEMO_PRODUCT_COUNT } = await import('../demo/generate-products.ts');
    const urls = new Set(Array.from({ length: DEMO_PRODUCT_COUNT }, (_, i) => generateProduct(i).images).flat());
    for (const url of urls) expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(200);
  });
});
