import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/database.ts';
import type { RateLimitRepository } from '../http/rate-limit/rate-limit.repository.ts';
import type { Mailer } from '../mail/mailer.ts';
import { accountsRoutes } from './accounts.routes.ts';
import type { OrderPagePath } from '../order-page/order-page.service.ts';
import { createAccountsService } from './accounts.service.ts';
import { createSignInGuard } from './sign-in-guard.ts';

/**
 * Shoppers' accounts and the guard that tells a request's signed-in shopper; `checkoutGuard` tells
 * it on the money path's connections, for a checkout (orders.feature.ts).
 */
export function createShopAccounts(
  db: Db,
  options: {
    mailer: Mailer;
    config: Pick<Config, 'publicUrl' | 'shop'>;
    /** The shop's name as the owner's settings stand now. */
    shopName: () => Promise<string>;
    counters: RateLimitRepository;
    secureCookies: boolean;
    log: (error: unknown) => void;
    /** An order's page path (order-page.service.ts), for My Account's orders. */
    orderPagePath?: OrderPagePath;
  },
) {
  const { mailer, config, counters, secureCookies, log } = options;
  const accountsOn = (connections: typeof db.kysely) =>
    createAccountsService(connections, {
      mailer,
      ...(options.orderPagePath ? { orderPagePath: options.orderPagePath } : {}),
      publicUrl: config.publicUrl,
      shopName: options.shopName,
      counters,
      log,
    });
  const accounts = accountsOn(db.kysely);
  const guard = createSignInGuard(accounts, secureCookies);
  // A signed-in shopper's checkout looks up their session on the money path's connections too.
  const checkoutGuard = db.checkout === db.kysely ? guard : createSignInGuard(accountsOn(db.checkout), secureCookies);
  return { accounts, guard, checkoutGuard };
}

export type ShopAccounts = ReturnType<typeof createShopAccounts>;

export interface AccountsFeatureOptions {
  accounts: ShopAccounts;
  counters: RateLimitRepository;
  rateLimitFactor: number;
  secureCookies: boolean;
  /** Signs the mark of a browser that signed in before (http/device-mark.ts). */
  deviceSecret: string;
}

/** Registration, signing in and out, password resets and a shopper's own pages (docs/rules.md#accounts-and-sessions). */
export const accountsFeature: FastifyPluginAsync<AccountsFeatureOptions> = async (app, options) => {
  await app.register(accountsRoutes, {
    prefix: '/api',
    accounts: options.accounts.accounts,
    guard: options.accounts.guard,
    secureCookies: options.secureCookies,
    rateLimitFactor: options.rateLimitFactor,
    counters: options.counters,
    deviceSecret: options.deviceSecret,
  });
};
