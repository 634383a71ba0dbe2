import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { shopSettingsAnswerSchema, shopSettingsSchema } from '../../contract/admin/settings.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { ShopSettingsService } from './settings.service.ts';

/** The back office's Settings page (issue 37): read and changed by owners only. */
export const settingsAdminRoutes: FastifyPluginAsyncZod<{ settings: ShopSettingsService; guard: StaffGuard }> = async (
  app,
  { settings, guard },
) => {
  const schema = { response: { 200: shopSettingsAnswerSchema } };
  app.get('/settings', { schema }, () => settings.read());
  app.put('/settings', { schema: { ...schema, body: shopSettingsSchema } }, (request) =>
    settings.update(request.body, guard.staffOf(request)),
  );
};
