import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/** A JSON body nested `depth` levels deep, built as text (JSON.stringify would overflow too). */
function nested(depth: number, open: string, close: string, inner = '1'): string {
  return `{"name":${open.repeat(depth)}${inner}${close.repeat(depth)}}`;
}

/** Bad input always gets a 4xx, never a 500 from a stack overflow (docs/rules.md#security). */
describe('deeply nested JSON bodies', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  for (const depth of [10_000, 100_000]) {
    for (const [kind, open, close] of [
      ['arrays', '[', ']'],
      ['objects', '{"a":', '}'],
    ] as const) {
      const payload = nested(depth, open, close);
      // 100,000 levels of objects is over the 256 kB body limit: a 413 is the right refusal there.
      const tooLarge = payload.length > 256 * 1024;
      it(`refuses ${depth.toLocaleString('en-GB')} levels of ${kind} with a ${tooLarge ? '413' : '400 naming body'}`, async () => {
        for (const url of ['/api/contact', '/api/account']) {
          const answer = await t.app.inject({
            method: url === '/api/contact' ? 'POST' : 'PUT',
            url,
            headers: { 'content-type': 'application/json' },
            payload,
          });
          expect(answer.statusCode, `${url}: ${answer.body.slice(0, 300)}`).toBe(tooLarge ? 413 : 400);
          const { error } = answer.json<{
            error: { code: string; message: string; fields?: Array<{ field: string }> };
          }>();
          if (!tooLarge) expect(error.fields?.map((f) => f.field)).toContain('body');
        }
      });
    }
  }

  it('still finds a NUL character deep inside a body of ordinary depth', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json' },
      payload: nested(20, '{"a":', '}', '"x\\u0000"'),
    });
    expect(answer.statusCode).toBe(400);
    expect(answer.json().error.fields[0].field).toBe(`name${'.a'.repeat(20)}`);
  });
});
