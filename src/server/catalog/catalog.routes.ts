import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  brandListSchema,
  countryListSchema,
  offerListSchema,
  offersParams,
  productKeyParams,
  productListSchema,
  productSchema,
  productStockQuery,
  productTypeTreeSchema,
  randomByBrandParams,
  randomByTypeParams,
  relatedParams,
  searchRequestSchema,
  searchResponseSchema,
  stockDetailListSchema,
  titleListSchema,
} from '../../contract/catalog.ts';
import type { CatalogService } from './catalog.service.ts';

/** Catalogue calls under /api (docs/rules.md#catalogue-and-search). Thin: schema in, one service call, result out. */
export const catalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (app, { catalog }) => {
  app.get('/product-types', { schema: { response: { 200: productTypeTreeSchema } } }, () => catalog.productTypes());
  app.get('/brands', { schema: { response: { 200: brandListSchema } } }, () => catalog.brands());
  app.get('/countries', { schema: { response: { 200: countryListSchema } } }, () => catalog.countries());
  app.get('/titles', { schema: { response: { 200: titleListSchema } } }, () => catalog.titles());

  app.get(
    '/products/random/:typeId/:count',
    { schema: { params: randomByTypeParams, response: { 200: productListSchema } } },
    (request) => catalog.randomByType(request.params.typeId, request.params.count),
  );
  app.get(
    '/products/random/brand/:brandId/:count',
    { schema: { params: randomByBrandParams, response: { 200: productListSchema } } },
    (request) => catalog.randomByBrand(request.params.brandId, request.params.count),
  );
  app.get(
    '/products/:key/:count',
    { schema: { params: relatedParams, response: { 200: productListSchema } } },
    (request) => catalog.related(request.params.key, request.params.count),
  );
  // An old URL key answers a 301 to the product's current one (docs/back-office.md#catalogue).
  app.get(
    '/products/:key',
    { schema: { params: productKeyParams, response: { 200: productSchema } } },
    async (request, reply) => {
      const found = await catalog.lookUp(request.params.key);
      if ('movedTo' in found) {
        return reply
          .header('cache-control', 'no-cache')
          .redirect(`/api/products/${encodeURIComponent(found.movedTo)}`, 301);
      }
      return found.product;
    },
  );
  app.get(
    '/product-stock',
    { schema: { querystring: productStockQuery, response: { 200: stockDetailListSchema } } },
    (request) => catalog.stockDetails(request.query.id),
  );
  app.post('/search', { schema: { body: searchRequestSchema, response: { 200: searchResponseSchema } } }, (request) =>
    catalog.search(request.body),
  );
  app.get('/offers/:productId', { schema: { params: offersParams, response: { 200: offerListSchema } } }, (request) =>
    catalog.offers(request.params.productId),
  );
};
