import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  lowStockThresholdSchema,
  stockAdjustmentSchema,
  stockHistorySchema,
  stockIdParamsSchema,
  stockListQuerySchema,
  stockListSchema,
  stockRowSchema,
} from '../../contract/admin/stock.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { StockAdminService } from './stock.admin-service.ts';

/** The stock page (docs/back-office.md#stock); the low-stock threshold is the owner's setting. */
export const stockAdminRoutes: FastifyPluginAsyncZod<{ stock: StockAdminService; guard: StaffGuard }> = async (
  app,
  { stock, guard },
) => {
  const params = stockIdParamsSchema;
  app.get('/stock', { schema: { querystring: stockListQuerySchema, response: { 200: stockListSchema } } }, (request) =>
    stock.list(request.query),
  );
  app.get('/stock/:stockId', { schema: { params, response: { 200: stockHistorySchema } } }, (request) =>
    stock.history(request.params.stockId),
  );
  app.post(
    '/stock/:stockId/adjustments',
    { schema: { params, body: stockAdjustmentSchema, response: { 200: stockRowSchema } } },
    (request) => stock.adjust(request.params.stockId, request.body, guard.staffOf(request)),
  );
  app.put(
    '/settings/low-stock-threshold',
    {
      schema: { body: lowStockThresholdSchema, response: { 200: lowStockThresholdSchema } },
    },
    (request) => stock.setLowStockThreshold(request.body, guard.staffOf(request)),
  );
};
