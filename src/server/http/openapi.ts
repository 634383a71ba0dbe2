import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

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
          'State-changing calls echo the XSRF-TOKEN cookie in X-XSRF-TOKEN.',
        version: '1',
      },
      servers: [{ url: options.publicUrl }],
    },
    // Only the API: the pages, the sandboxes, the images and the crawler files are not part of it.
    transform: (route) =>
      route.url.startsWith('/api/')
        ? jsonSchemaTransform(route)
        : { schema: { ...route.schema, hide: true }, url: route.url },
    // The schemas named in zod's registry (.meta({ id })) become components, which the routes'
    // schemas refer to: without them a $ref (the product-type tree's, to itself) would dangle.
    transformObject: jsonSchemaTransformObject,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  if (!options.production) {
    await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  }
}
