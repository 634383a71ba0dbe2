import { Validator } from '@seriousme/openapi-schema-validator';
import { isDeepStrictEqual as isEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routesOf } from '../../../test/helpers/routes.ts';
import { createTestApp, type TestApp } from '../../../test/helpers/test-app.ts';

/**
 * The API describes itself as OpenAPI 3.1, generated from the same zod schemas that check its
 * calls, so the description cannot drift from what the server accepts (docs/rules.md#api-answers-and-errors).
 */
interface Operation {
  requestBody?: { required?: boolean; content: Record<string, { schema: unknown }> };
  parameters?: Array<{ in: string; name: string; schema: unknown }>;
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
}
interface OpenApi {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
}

/** Every operation of the document, with its path and method. */
function operationsOf(document: OpenApi): Array<[string, string, Operation]> {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]): [string, string, Operation] => [path, method, operation]),
  );
}

/** Every subschema in `schema`, itself included. */
function subschemasOf(schema: unknown): unknown[] {
  if (typeof schema !== 'object' || schema === null) return [];
  return [schema, ...Object.values(schema).flatMap(subschemasOf)];
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
    // A copy: the validator resolves the $refs in what it is given.
    const result = await new Validator().validate(structuredClone(document) as unknown as Record<string, unknown>);
    expect(result).toEqual({ valid: true });
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

  it('names the error shape once, and every error answer of every route has it', () => {
    expect(document.components.schemas.ApiError?.properties).toHaveProperty('error');
    const errorAnswers = operationsOf(document).flatMap(([path, method, operation]) =>
      Object.entries(operation.responses)
        .filter(([status]) => /^[45]/.test(status))
        .map(([status, answer]) => [`${method} ${path} ${status}`, answer.content?.['application/json']?.schema]),
    );
    expect(errorAnswers.length).toBeGreaterThan(100);
    // One route answers a used link's 400 with {ok: false} as well (POST /api/activate): ApiError must be one choice.
    const apiError = { $ref: '#/components/schemas/ApiError' };
    const hasApiError = (schema: unknown) =>
      isEqual(schema, apiError) ||
      ((schema as { anyOf?: unknown[] }).anyOf ?? []).some((one) => isEqual(one, apiError));
    expect(errorAnswers.filter(([, schema]) => !hasApiError(schema))).toEqual([]);
  });

  it('lists the refusals each route can give, and only those', () => {
    const statuses = (method: string, path: string) => Object.keys(document.paths[path]?.[method]?.responses ?? {});
    // A body to check and to parse, a CSRF token, a voucher-guess limit, and the route's own 409 and 422.
    expect(statuses('post', '/api/basket').sort()).toEqual([
      '200',
      '400',
      '403',
      '409',
      '413',
      '415',
      '422',
      '429',
      '5XX',
    ]);
    // A staff member's route with a parameter to look up; no body.
    expect(statuses('get', '/api/admin/orders/{orderNumber}').sort()).toEqual([
      '200',
      '400',
      '401',
      '403',
      '404',
      '5XX',
    ]);
    // The customer's guard; a per-client limit.
    expect(statuses('get', '/api/account')).toContain('401');
    expect(statuses('post', '/api/contact')).toContain('429');
    expect(statuses('post', '/api/admin/sign-in')).toContain('429');
    // The photo conversion queue, full; an owner's write that can conflict (the last owner).
    expect(statuses('post', '/api/admin/products/{id}/photos')).toContain('429');
    expect(statuses('patch', '/api/admin/staff/{id}')).toContain('409');
    // Nothing to refuse but a failure of ours.
    expect(statuses('get', '/api/brands').sort()).toEqual(['200', '5XX']);
    // PayPal's notifications are checked by PayPal's own protocol, not the CSRF token.
    expect(statuses('post', '/api/payments/paypal/ipn')).not.toContain('403');
  });

  it('gives the CSV import a body a client can send', () => {
    for (const path of ['/api/admin/products/import', '/api/admin/products/import/preview']) {
      expect(document.paths[path]?.post?.requestBody?.content['text/csv']?.schema).toMatchObject({ type: 'string' });
    }
  });

  it('gives the photo upload a multipart body of file parts', () => {
    const body = document.paths['/api/admin/products/{id}/photos']?.post?.requestBody;
    expect(body?.required).toBe(true);
    expect(body?.content['multipart/form-data']?.schema).toMatchObject({
      type: 'object',
      required: ['file'],
      properties: {
        file: { type: 'array', items: { type: 'string', contentMediaType: expect.stringMatching(/image/) } },
      },
    });
  });

  it('does not declare closed the queries and bodies the server takes with unknown keys', async () => {
    const requests = operationsOf(document).flatMap(([, , operation]) => [
      operation.requestBody,
      ...(operation.parameters ?? []),
    ]);
    const closed = requests
      .flatMap(subschemasOf)
      .filter((schema) => (schema as { additionalProperties?: unknown }).additionalProperties === false);
    expect(closed).toEqual([]);
    // The server ignores a key it does not know, as the document says it may.
    const answer = await t.app.inject({ method: 'GET', url: '/api/product-stock?id=1&colour=red' });
    expect(answer.statusCode).toBe(200);
  });

  it('has a reference page outside production', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });
});
