import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorSchema } from '../../contract/errors.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/** The router's own refusals answer in the shop's error shape too (docs/rules.md#api-answers-and-errors). */
describe("the router's refusals", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  for (const url of ['/api/products/%E0%A4', '/api/products/%', '/%E0%A4']) {
    it(`answers GET ${url} with a 400 in the shop's error shape`, async () => {
      const answer = await t.server.inject({ method: 'GET', url });
      expect(answer.statusCode).toBe(400);
      expect(answer.headers['content-type']).toMatch(/^application\/json/);
      const parsed = apiErrorSchema.strict().parse(answer.json());
      expect(parsed.error.code).toBe('VALIDATION_FAILED');
      expect(parsed.error.fields).toEqual([{ field: 'url', message: expect.any(String) }]);
      expect(answer.body).not.toContain('FST_ERR');
    });
  }

  it('sends its refusals with the security headers every other answer has', async () => {
    // (The router refuses before the hooks that set them run, so they were missing here.)
    const answer = await t.server.inject({ method: 'GET', url: '/products/%ff' });
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['x-content-type-options']).toBe('nosniff');
    expect(answer.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(answer.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });
});
