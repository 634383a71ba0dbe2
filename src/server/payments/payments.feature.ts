import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import { paymentsRoutes } from './payments.routes.ts';
import type { PaymentsService } from './payments.service.ts';
import { paymentSandboxRoutes } from './sandbox/sandbox.routes.ts';

export interface PaymentsFeatureOptions {
  /** Made by the app: the back office refunds through its providers too (orders.admin-feature.ts). */
  payments: PaymentsService;
  counters: RateLimitRepository;
  config: Config;
  /** The sandboxes' database: they keep what a provider would (a PayPal Checkout order). */
  db: Db;
  /** How the sandboxes reach the shop's webhook; tests give a stand-in. */
  sandboxFetch: typeof fetch | undefined;
}

/**
 * Handing an order to its payment provider, and the provider's returns, notifications and webhooks
 * (ADR 0025); with the local stand-ins for PayPal and Opayo when configured (config refuses them
 * in production).
 */
export const paymentsFeature: FastifyPluginAsync<PaymentsFeatureOptions> = async (app, options) => {
  const { payments, counters, config, sandboxFetch } = options;
  await app.register(paymentsRoutes, { payments, counters, rateLimitFactor: config.rateLimitFactor });
  if (config.paypal.mode === 'local' || config.opayo.mode === 'local') {
    await app.register(paymentSandboxRoutes, {
      prefix: '/sandbox',
      config,
      db: options.db.kysely,
      ...(sandboxFetch ? { fetch: sandboxFetch } : {}),
    });
  }
};
