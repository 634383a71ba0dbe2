import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../../test/helpers/routes.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * The API describes itself as OpenAPI 3.1, generated from the same zod schemas that check its
 * calls, so the description cannot drift from what the server accepts (docs/rules.md#api-answers-and-errors).
 */
interface OpenApi {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { requestBody?: { content: Record<string, { schema: unknown }> } }>>;
}

describe('GET /api/openapi.json', () => {
  let t: TestApp;
  let document: OpenApi;
  beforeAll(async () => {
    t = await createTestApp();
    const answer = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(answer.statusCode).toBe(200);
    document = answer.json<OpenApi>();
  });
  afterAll(() => t.close());

  it('is a valid OpenAPI document, every $ref resolving', async () => {
    const result = await new Validator().validate(structuredClone(document) as object);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('is an OpenAPI 3.1 document naming every API route with its methods', () => {
    expect(document.openapi).toMatch(/^3\.1\./);
    expect(document.info.title).toBe('Raag Instruments API');
    const apiRoutes = routesOf(t.server.printRoutes({ commonPrefix: false })).filter(
      ([method, path]) =>
        path.startsWith('/api/') && method !== 'HEAD' && !path.startsWith('/api/docs') && path !== '/api/openapi.json',
    );
    expect(apiRoutes.length).toBeGreaterThan(30);
    const missing = apiRoutes.filter(([method, path]) => {
      const openApiPath = path.replace(/:(\w+)/g, '{$1}');
      return !document.paths[openApiPath]?.[method.toLowerCase()];
    });
    expect(missing).toEqual([]);
    expect(Object.keys(document.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
  });

  it('describes a call by the schema the server checks it with', () => {
    const commit = document.paths['/api/basket']?.post?.requestBody?.content['application/json']?.schema as {
      properties: Record<string, { maxItems?: number }>;
      required: string[];
    };
    expect(commit.properties.items?.maxItems).toBe(100);
    expect(commit.required).toEqual(expect.arrayContaining(['items', 'guest', 'billingAddress', 'deliveryAddress']));
  });

  it('has a reference page outside production', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});
