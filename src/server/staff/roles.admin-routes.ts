import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '../../contract/accounts.ts';
import {
  roleIdParamsSchema,
  staffRoleInputSchema,
  staffRoleListSchema,
  staffRoleSchema,
} from '../../contract/admin/permissions.ts';
import type { StaffGuard } from './staff-guard.ts';
import type { RolesService } from './roles.service.ts';

/** The role editor's calls (docs/back-office.md#permissions); who may make them is in admin-access.ts. */
export const rolesAdminRoutes: FastifyPluginAsyncZod<{ roles: RolesService; guard: StaffGuard }> = async (
  app,
  { roles, guard },
) => {
  app.get('/roles', { schema: { response: { 200: staffRoleListSchema } } }, () => roles.list());
  app.post('/roles', { schema: { body: staffRoleInputSchema, response: { 200: staffRoleSchema } } }, (request) =>
    roles.create(request.body, guard.staffOf(request)),
  );
  app.put(
    '/roles/:id',
    { schema: { params: roleIdParamsSchema, body: staffRoleInputSchema, response: { 200: staffRoleSchema } } },
    (request) => roles.update(request.params.id, request.body, guard.staffOf(request)),
  );
  app.delete('/roles/:id', { schema: { params: roleIdParamsSchema, response: { 200: okSchema } } }, async (request) => {
    await roles.remove(request.params.id, guard.staffOf(request));
    return { ok: true };
  });
};
