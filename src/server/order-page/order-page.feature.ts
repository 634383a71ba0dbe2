import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '../db/database.ts';
import type { DocumentLinks } from '../documents/document-links.ts';
import type { DocumentsService } from '../documents/documents.service.ts';
import type { OrderLinks } from '../orders/order-links.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import { orderPageAdminRoutes } from './order-page.admin-routes.ts';
import { orderPageRoutes } from './order-page.routes.ts';
import { createOrderPageService, type OrderPageService } from './order-page.service.ts';

/**
 * The customer's order page (docs/rules.md#the-customers-order-page): made before the features
 * that link to it (My Account, the confirmation page), signed with the shop's secret as the
 * documents' links are.
 */
export function createShopOrderPage(
  db: Db,
  options: {
    /** The order links, signed with the shop's cookie secret (app.ts), as the documents' links are. */
    links: OrderLinks;
    publicUrl: string;
    shopAddress: () => Promise<string>;
    documents: { service: DocumentsService; links: DocumentLinks };
  },
): OrderPageService {
  return createOrderPageService(db.kysely, {
    links: options.links,
    documentLinks: options.documents.links,
    documents: options.documents.service,
    publicUrl: options.publicUrl,
    shopAddress: options.shopAddress,
  });
}

/** The shopper's side, under /api. */
export const orderPageFeature: FastifyPluginAsync<{ orderPage: OrderPageService; rateLimitFactor: number }> = async (
  app,
  options,
) => {
  await app.register(orderPageRoutes, { prefix: '/api', ...options });
};

/** The back office's side: revoking an order's links. */
export const orderPageAdminFeature: FastifyPluginAsync<{ orderPage: OrderPageService; guard: StaffGuard }> = async (
  admin,
  options,
) => {
  await admin.register(orderPageAdminRoutes, options);
};
