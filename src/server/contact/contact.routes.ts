import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { okSchema } from '../../contract/accounts.ts';
import { contactRequestSchema } from '../../contract/contact.ts';
import { clientKeyOf } from '../http/client-address.ts';
import { keyedLimit } from '../http/rate-limit/keyed-limit.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import type { ContactService } from './contact.service.ts';

/** Enquiries one client may send in a day, besides five a minute (docs/rules.md#limits-on-one-client). */
export const CONTACT_MESSAGES_PER_CLIENT_PER_DAY = 20;

export const contactRoutes: FastifyPluginAsyncZod<{
  contact: ContactService;
  counters: RateLimitRepository;
  rateLimitFactor: number;
}> = async (app, { contact, counters, rateLimitFactor }) => {
  const perDay = keyedLimit(counters, {
    name: 'contact client day',
    max: Math.max(1, Math.round(CONTACT_MESSAGES_PER_CLIENT_PER_DAY * rateLimitFactor)),
    windowMs: 86_400_000,
    keyOf: (request) => clientKeyOf(request.ip),
    message: 'You have sent us many messages today. Please try again tomorrow, or call us.',
  });
  app.post(
    '/contact',
    {
      ...perMinute(5, rateLimitFactor),
      preHandler: perDay,
      schema: { body: contactRequestSchema, response: { 200: okSchema } },
    },
    (request) => contact.submit(request.body),
  );
};
