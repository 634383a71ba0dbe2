import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '../../contract/accounts.ts';
import { contactRequestSchema } from '../../contract/contact.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import type { ContactService } from './contact.service.ts';

export const contactRoutes: FastifyPluginAsyncZod<{ contact: ContactService; rateLimitFactor: number }> = async (
  app,
  { contact, rateLimitFactor },
) => {
  app.post(
    '/contact',
    {
      ...perMinute(5, rateLimitFactor),
      schema: { body: contactRequestSchema, response: { 200: okSchema } },
    },
    (request) => contact.submit(request.body),
  );
};
