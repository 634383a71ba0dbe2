import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  brandInputSchema,
  brandViewListSchema,
  idParamsSchema,
  productDetailSchema,
  productInputSchema,
  productListQuerySchema,
  productListSchema,
  productStatusChangeSchema,
  productTypeInputSchema,
  productTypeViewListSchema,
  reorderSchema,
} from '../../contract/admin/catalogue.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { CatalogAdminService } from './catalog.admin-service.ts';

/** The catalogue in the back office (docs/back-office.md#catalogue), for owners and staff alike. */
export const catalogAdminRoutes: FastifyPluginAsyncZod<{ catalog: CatalogAdminService; guard: StaffGuard }> = async (
  app,
  { catalog, guard },
) => {
  const params = idParamsSchema;
  const product = { 200: productDetailSchema };

  app.get(
    '/products',
    { schema: { querystring: productListQuerySchema, response: { 200: productListSchema } } },
    (request) => catalog.listProducts(request.query),
  );
  app.post('/products', { schema: { body: productInputSchema, response: product } }, (request) =>
    catalog.createProduct(request.body, guard.staffOf(request)),
  );
  app.get('/products/:id', { schema: { params, response: product } }, (request) => catalog.product(request.params.id));
  app.put('/products/:id', { schema: { params, body: productInputSchema, response: product } }, (request) =>
    catalog.updateProduct(request.params.id, request.body, guard.staffOf(request)),
  );
  app.post(
    '/products/:id/status',
    { schema: { params, body: productStatusChangeSchema, response: product } },
    (request) => catalog.setProductStatus(request.params.id, request.body.status, guard.staffOf(request)),
  );
  app.post('/products/:id/duplicate', { schema: { params, response: product } }, (request) =>
    catalog.duplicateProduct(request.params.id, guard.staffOf(request)),
  );

  const types = { 200: productTypeViewListSchema };
  app.get('/product-types', { schema: { response: types } }, () => catalog.types());
  app.post('/product-types', { schema: { body: productTypeInputSchema, response: types } }, (request) =>
    catalog.createType(request.body, guard.staffOf(request)),
  );
  app.put('/product-types/:id', { schema: { params, body: productTypeInputSchema, response: types } }, (request) =>
    catalog.updateType(request.params.id, request.body, guard.staffOf(request)),
  );
  app.post('/product-types/:id/reorder', { schema: { params, body: reorderSchema, response: types } }, (request) =>
    catalog.reorderType(request.params.id, request.body.direction, guard.staffOf(request)),
  );
  app.delete('/product-types/:id', { schema: { params, response: types } }, (request) =>
    catalog.deleteType(request.params.id, guard.staffOf(request)),
  );

  const brands = { 200: brandViewListSchema };
  app.get('/brands', { schema: { response: brands } }, () => catalog.brands());
  app.post('/brands', { schema: { body: brandInputSchema, response: brands } }, (request) =>
    catalog.createBrand(request.body, guard.staffOf(request)),
  );
  app.put('/brands/:id', { schema: { params, body: brandInputSchema, response: brands } }, (request) =>
    catalog.renameBrand(request.params.id, request.body, guard.staffOf(request)),
  );
  app.post('/brands/:id/reorder', { schema: { params, body: reorderSchema, response: brands } }, (request) =>
    catalog.reorderBrand(request.params.id, request.body.direction, guard.staffOf(request)),
  );
  app.delete('/brands/:id', { schema: { params, response: brands } }, (request) =>
    catalog.deleteBrand(request.params.id, guard.staffOf(request)),
  );
};
