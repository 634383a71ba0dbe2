import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../contract/errors.ts';
import { csrfExemptRoutes } from './csrf.ts';
import { statusesOf } from './hook-answers.ts';
import { accessOf } from '../staff/admin-access.ts';

/**
 * The API's OpenAPI 3.1 description (docs/rules.md#api-answers-and-errors), made from the zod
 * schemas the routes are checked with, at GET /api/openapi.json; outside production a reference
 * page at /api/docs/ reads it. Registered before the routes, since it learns them as they are
 * added.
 */
export async function registerOpenApi(app: FastifyInstance, options: { publicUrl: string; production: boolean }) {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Raag Instruments API',
        description:
          'The shop API: catalogue, basket, orders, payments and accounts. Money is integer pence. ' +
          'State-changing calls echo the XSRF-TOKEN cookie in X-XSRF-TOKEN. Every refusal and ' +
          'failure answers with the ApiError shape.',
        version: '1',
      },
      servers: [{ url: options.publicUrl }],
    },
    // Only the API: the pages, the sandboxes, the images and the crawler files are not part of it.
    transform: (document) => {
      if (!document.url.startsWith('/api/')) return { schema: { ...document.schema, hide: true }, url: document.url };
      const transformed = jsonSchemaTransform({
        ...document,
        schema: withErrorAnswers(document.schema, document.route),
      });
      const documentedBody = document.route.config?.documentedBody;
      // A body the route reads itself (a multipart upload), so it has no schema to check it with.
      return documentedBody ? { ...transformed, schema: { ...transformed.schema, body: documentedBody } } : transformed;
    },
    // The schemas named in zod's registry (.meta({ id })) become components, which the routes'
    // schemas refer to: without them a $ref (the product-type tree's, to itself) would dangle.
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  if (!options.production) {
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  }
}

type RouteSchema = NonNullable<RouteOptions['schema']>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The body as the document describes it (JSON Schema), for a route that reads its body itself
     * rather than through a schema it is checked with: a multipart upload.
     */
    documentedBody?: Record<string, unknown>;
  }
}

const bodyless = new Set(['GET', 'HEAD', 'OPTIONS']);

/** What each refusal means, for a reader of the document. */
const refusals = {
  400: 'Bad input: the error names each field at fault (error.fields)',
  401: 'Not signed in',
  403: 'Refused: the CSRF token is missing or wrong, or this caller may not do this',
  404: 'Not found',
  409: 'Refused: the change conflicts with what the shop holds (a name or code in use, a thing still in use, an order in another state)',
  413: 'The body is larger than this call takes',
  415: 'The body is not of a type this call takes',
  429: 'Too many requests from this client; try again after the Retry-After header',
  '5XX': 'Something went wrong on our side (500), or the database or a provider is unavailable (503)',
} as const;

/**
 * The error answers a route can give, by what the shop's shared machinery answers for it
 * (src/server/http/errors.ts and the hooks), added to the ones the route declares itself (a
 * service's 409, say), so the document lists every status a client may meet, each with the one
 * error shape. Only what holds for the route: a 404 where it has parameters to look up, a 413/415
 * where it takes a body, a 401 where a guard stands, a 429 where a limit counts.
 */
function withErrorAnswers(schema: RouteSchema | undefined, route: RouteOptions): RouteSchema {
  const methods = [route.method].flat().map((method) => method.toUpperCase());
  const takesBody = methods.some((method) => !bodyless.has(method));
  const admin = route.url.startsWith('/api/admin/');
  // Open to anyone by the back office's one table (src/server/staff/admin-access.ts).
  const staffPublic = admin && methods.every((method) => accessOf(method, route.url) === 'public');
  const fromHooks = new Set([route.onRequest, route.preHandler].flat().flatMap(statusesOf));
  const statuses: Array<keyof typeof refusals> = [];
  if (schema?.body || schema?.querystring || schema?.params || takesBody) statuses.push(400);
  // The back office's guard (src/server/staff/staff-guard.ts), and the customer's where it stands.
  if ((admin && !staffPublic) || fromHooks.has(401)) statuses.push(401);
  // CSRF for every state-changing call but the providers'; an owner's route; HTTPS for the back office.
  if ((takesBody && !csrfExemptRoutes.has(route.url)) || admin) statuses.push(403);
  if (schema?.params) statuses.push(404);
  // The back office's services refuse a change that conflicts (RefusedError 409) on nearly every
  // write; told per route, it would be a line in each of forty routes for the few that cannot.
  if (admin && takesBody && !staffPublic) statuses.push(409);
  if (takesBody) statuses.push(413, 415);
  if (route.config?.rateLimit || fromHooks.has(429)) statuses.push(429);
  statuses.push('5XX');
  const errorAnswers = Object.fromEntries(
    statuses.map((status) => [
      status,
      { description: refusals[status], content: { 'application/json': { schema: apiErrorSchema } } },
    ]),
  );
  return { ...schema, response: { ...errorAnswers, ...(schema?.response as object | undefined) } };
}
