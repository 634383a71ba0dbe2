import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MAX_IMPORT_BYTES,
  productCsvBodySchema,
  productImportSummarySchema,
} from '../../contract/admin/products-csv.ts';
import { textBodyParser } from '../http/text-body.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { ProductsCsvService } from './products-csv.admin-service.ts';

/**
 * Products as CSV (docs/back-office.md#csv-import-and-export). Both need the catalogue permission
 * (src/server/staff/admin-access.ts); an import rewrites prices and stock of up to 20,000 rows at
 * once, so give it only to a role you trust with all of them. The file is the body (text/csv), taken by these routes
 * only: elsewhere the API still refuses text (415).
 */
export const productsCsvAdminRoutes: FastifyPluginAsyncZod<{ csv: ProductsCsvService; guard: StaffGuard }> = async (
  app,
  { csv, guard },
) => {
  app.addContentTypeParser(['text/csv', 'application/csv'], textBodyParser(MAX_IMPORT_BYTES));
  const importRoute = {
    bodyLimit: MAX_IMPORT_BYTES,
    schema: {
      consumes: ['text/csv'],
      body: productCsvBodySchema,
      response: { 200: productImportSummarySchema },
    },
  };

  app.get('/products.csv', (_request, reply) => {
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .header('content-disposition', `attachment; filename="products-${day}.csv"`)
      .header('cache-control', 'no-store')
      .type('text/csv; charset=utf-8')
      .send(Readable.from(csv.exportCsv()));
  });
  app.post('/products/import/preview', importRoute, (request) => csv.preview(request.body));
  app.post('/products/import', importRoute, (request) => csv.apply(request.body, guard.staffOf(request)));
};
