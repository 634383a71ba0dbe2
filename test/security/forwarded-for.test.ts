import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Behind one reverse proxy (TRUST_PROXY=true), the client is the address the proxy saw: the last
 * in X-Forwarded-For. The first is whatever the client wrote, and an outside attack used it to
 * get a fresh limit on each try (nginx's $proxy_add_x_forwarded_for keeps what the client sent).
 */
describe('the client behind a reverse proxy', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
  });
  afterAll(() => t.close());

  it('is the address the proxy appended, not one the client wrote before it', async () => {
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      const answer = await t.app.inject({
        method: 'POST',
        url: '/api/admin/sign-in',
        payload: { email: `guess${i}@shop.example`, password: 'Wrong-Password-1' },
        headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` },
      });
      statuses.push(answer.statusCode);
    }
    expect(statuses.slice(0, 10).every((status) => status === 401)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
