import type { FastifyPluginAsync } from 'fastify';
import { printPictures } from '../catalog/photos/print-pictures.ts';
import type { PhotoStore } from '../catalog/photos/photo-store.ts';
import type { Db } from '../db/database.ts';
import { invoiceOfPaidOrder, packingSlipsOf } from '../orders/order-documents.ts';
import { createDocumentLinks } from './document-links.ts';
import { createDocumentRenderer } from './document-renderer.ts';
import { documentsAdminRoutes } from './documents.admin-routes.ts';
import { documentsRoutes } from './documents.routes.ts';
import { createDocumentsService, type DocumentsService } from './documents.service.ts';

/**
 * Invoices, credit notes and packing slips (docs/rules.md#invoices-and-credit-notes): the service
 * that draws them, made before the features that use it (payments' e-mails carry its signed
 * links; the back office opens them), and the thread it draws them in.
 */
export function createShopDocuments(db: Db, options: { photoStore: PhotoStore; cookieSecret: string }) {
  const links = createDocumentLinks(options.cookieSecret);
  const renderer = createDocumentRenderer();
  const service = createDocumentsService(db.kysely, {
    renderer,
    links,
    invoiceOfPaidOrder: (orderNumber) => invoiceOfPaidOrder(db.kysely, orderNumber, () => new Date()),
    packingSlipsOf: (which) => packingSlipsOf(db.kysely, which),
    printPictures: (productIds) => printPictures(db.kysely, options.photoStore, productIds),
  });
  return { service, links, close: () => renderer.close() };
}

/** A customer's documents by their signed links; the drawing thread stops with the app. */
export const documentsFeature: FastifyPluginAsync<{
  documents: ReturnType<typeof createShopDocuments>;
  rateLimitFactor: number;
}> = async (app, { documents, rateLimitFactor }) => {
  app.addHook('onClose', () => documents.close());
  await app.register(documentsRoutes, { prefix: '/api', documents: documents.service, rateLimitFactor });
};

/** The back office's side: an order's documents, the accountant's batch and the packing slips. */
export const documentsAdminFeature: FastifyPluginAsync<{ documents: DocumentsService }> = async (admin, options) => {
  await admin.register(documentsAdminRoutes, options);
};
