import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  packagingIdParamsSchema,
  packagingInputSchema,
  packagingListSchema,
  packagingSchema,
} from '../../contract/admin/shipping.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { PackagingsAdminService } from './packagings.admin-service.ts';

/** Packaging presets (docs/back-office.md#shipping-labels). */
export const packagingsAdminRoutes: FastifyPluginAsyncZod<{
  packagings: PackagingsAdminService;
  guard: StaffGuard;
}> = async (app, { packagings, guard }) => {
  app.get('/packagings', { schema: { response: { 200: packagingListSchema } } }, () => packagings.list());
  app.post(
    '/packagings',
    { schema: { body: packagingInputSchema, response: { 201: packagingSchema } } },
    async (request, reply) => reply.status(201).send(await packagings.create(request.body, guard.staffOf(request))),
  );
  app.put(
    '/packagings/:id',
    { schema: { params: packagingIdParamsSchema, body: packagingInputSchema, response: { 200: packagingSchema } } },
    (request) => packagings.update(request.params.id, request.body, guard.staffOf(request)),
  );
  app.delete('/packagings/:id', { schema: { params: packagingIdParamsSchema } }, async (request, reply) => {
    await packagings.remove(request.params.id, guard.staffOf(request));
    return reply.status(204).send();
  });
};
