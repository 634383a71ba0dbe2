import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '../../contract/accounts.ts';
import { contactRequestSchema } from '../../contract/contact.ts';
import type { ContactService } from './contact.service.ts';

export const contactRoutes: FastifyPluginAsyncZod<{ contact: ContactService }> = async (app, { contact }) => {
  app.post(
    '/contact',
    {
      config: { rateLimit: { max: 5, timeWindow: '1 minute' } },
      schema: { body: contactRequestSchema, response: { 200: okSchema } },
    },
    (request) => contact.submit(request.body),
  );
};
