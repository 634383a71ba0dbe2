import type { ShopIdentity } from '../../contract/shop.ts';
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
  config: Pick<Config, 'publicUrl' | 'rateLimitFactor'>;
  counters: RateLimitRepository;
  /** The shop's identity as the owner's settings stand now (settings.service.ts). */
  shopNow: () => Promise<ShopIdentity>;
}

/** The contact form: an enquiry mailed to the shop, a copy to its sender (docs/rules.md#mail). */
export const contactFeature: FastifyPluginAsync<ContactFeatureOptions> = async (app, options) => {
  const { db, mailer, config, counters } = options;
  await app.register(contactRoutes, {
    prefix: '/api',
    rateLimitFactor: config.rateLimitFactor,
    counters,
    contact: createContactService(db.kysely, { mailer, shop: options.shopNow, publicUrl: config.publicUrl, counters }),
  });
};
