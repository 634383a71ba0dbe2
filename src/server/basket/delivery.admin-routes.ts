import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  countryIdParamsSchema,
  countryInputSchema,
  deliveryMethodIdParamsSchema,
  deliveryMethodInputSchema,
  deliveryMethodListSchema,
  deliveryMethodOrderSchema,
  deliveryMethodSchema,
  deliverySetupSchema,
  servedCountrySchema,
} from '../../contract/admin/delivery.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { DeliveryAdminService } from './delivery.admin-service.ts';

/** Delivery methods, rates and the countries served (docs/back-office.md#delivery). */
export const deliveryAdminRoutes: FastifyPluginAsyncZod<{ delivery: DeliveryAdminService; guard: StaffGuard }> = async (
  app,
  { delivery, guard },
) => {
  app.get('/delivery', { schema: { response: { 200: deliverySetupSchema } } }, () => delivery.setup());
  app.post(
    '/delivery-methods',
    { schema: { body: deliveryMethodInputSchema, response: { 201: deliveryMethodSchema } } },
    async (request, reply) => reply.status(201).send(await delivery.createMethod(request.body, guard.staffOf(request))),
  );
  app.put(
    '/delivery-methods/:id',
    {
      schema: {
        params: deliveryMethodIdParamsSchema,
        body: deliveryMethodInputSchema,
        response: { 200: deliveryMethodSchema },
      },
    },
    (request) => delivery.updateMethod(request.params.id, request.body, guard.staffOf(request)),
  );
  app.post(
    '/delivery-methods/order',
    { schema: { body: deliveryMethodOrderSchema, response: { 200: deliveryMethodListSchema } } },
    (request) => delivery.reorder(request.body, guard.staffOf(request)),
  );
  app.post(
    '/countries',
    { schema: { body: countryInputSchema, response: { 201: servedCountrySchema } } },
    async (request, reply) => reply.status(201).send(await delivery.addCountry(request.body, guard.staffOf(request))),
  );
  // Answers the countries and methods as they now are.
  app.delete(
    '/countries/:id',
    { schema: { params: countryIdParamsSchema, response: { 200: deliverySetupSchema } } },
    (request) => delivery.removeCountry(request.params.id, guard.staffOf(request)),
  );
};
