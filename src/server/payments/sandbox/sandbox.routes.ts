import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Database } from '../../db/schema.ts';
import { opayoSandboxRoutes } from './opayo-sandbox.routes.ts';
import { paypalCheckoutSandboxRoutes } from './paypal-checkout-sandbox.routes.ts';
import { paypalSandboxRoutes } from './paypal-sandbox.routes.ts';
import { acceptFormPosts } from './sandbox-pages.ts';

/**
 * Local stand-ins for PayPal and Opayo, so a whole purchase runs offline in development, tests and
 * the demo. Each speaks its provider's real protocol and says plainly that it is a sandbox.
 * Registered only in local mode, which the configuration refuses in production.
 */
export const paymentSandboxRoutes: FastifyPluginAsync<{
  config: Config;
  db: Kysely<Database>;
  /** How the sandbox reaches the shop's webhook; tests give a stand-in. */
  fetch?: typeof fetch;
}> = async (app, { config, db, fetch }) => {
  acceptFormPosts(app);
  await app.register(paypalSandboxRoutes, { config, db });
  await app.register(paypalCheckoutSandboxRoutes, { config, db, ...(fetch ? { fetch } : {}) });
  await app.register(opayoSandboxRoutes, { config });
};
