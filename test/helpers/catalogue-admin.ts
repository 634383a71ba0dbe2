import type { ProductInput } from '../../src/contract/admin/catalogue.ts';
import type { TestApp } from './test-app.ts';

let made = 0;

/** A whole product as the back office's form sends it; a test overrides what it is about. */
export function productInput(typeId: number, brandId: number, overrides: Partial<ProductInput> = {}): ProductInput {
  const n = `${++made}-${Date.now().toString(36)}`;
  return {
    title: `Test Dholak ${n}`,
    urlKey: `test-dholak-${n}`,
    productTypeId: typeId,
    brandId,
    description: 'Sheesham shell, rope tuned.\nA second line.',
    seoTitle: '',
    seoKeywords: '',
    seoDescription: '',
    searchTags: '',
    status: 'draft',
    sizes: [
      { sizeName: 'Standard', priceWithoutDiscount: 12_000, priceReduction: 0, stock: 5 },
      { sizeName: 'Large', priceWithoutDiscount: 15_000, priceReduction: 10, stock: 3 },
    ],
    ...overrides,
  };
}

/** Calls to /api/admin as a signed-in member of staff. */
export function adminCalls(t: TestApp, cookie: string) {
  return (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/admin${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
}
