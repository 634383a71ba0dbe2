import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import type { Mailer } from '../mail/mailer.ts';
import { contactRoutes } from './contact.routes.ts';
import { createContactService } from './contact.service.ts';

export interface ContactFeatureOptions {
  db: Db;
  mailer: Mailer;
  config: Pick<Config, 'shop' | 'publicUrl' | 'rateLimitFactor'>;
  counters: RateLimitRepository;
}

/** The contact form: an enquiry mailed to the shop, a copy to its sender (docs/rules.md#mail). */
export const contactFeature: FastifyPluginAsync<ContactFeatureOptions> = async (app, options) => {
  const { db, mailer, config, counters } = options;
  await app.register(contactRoutes, {
    prefix: '/api',
    rateLimitFactor: config.rateLimitFactor,
    counters,
    contact: createContactService(db.kysely, { mailer, shop: config.shop, publicUrl: config.publicUrl, counters }),
  });
};
