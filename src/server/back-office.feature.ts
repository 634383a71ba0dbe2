import type { FastifyPluginAsync } from 'fastify';
import { customersAdminFeature } from './accounts/customers.admin-feature.ts';
import { auditFeature } from './audit/audit.feature.ts';
import { basketAdminFeature } from './basket/basket.admin-feature.ts';
import { catalogAdminFeature } from './catalog/catalog.admin-feature.ts';
import type { PhotosAdminService } from './catalog/photos/photos.admin-service.ts';
import type { SearchEngine } from './catalog/search-engine/search-engine.ts';
import type { Config } from './config.ts';
import { dashboardFeature } from './dashboard/dashboard.feature.ts';
import { documentsAdminFeature } from './documents/documents.feature.ts';
import type { DocumentsService } from './documents/documents.service.ts';
import type { Db } from './db/database.ts';
import { requireHttps } from './http/admin-scope.ts';
import type { RateLimitRepository } from './http/rate-limit/rate-limit.repository.ts';
import type { MetricsHooks } from './metrics/metrics.ts';
import type { CheckoutThread } from './orders/checkout-thread/checkout-thread.ts';
import type { RefundingProvider } from './orders/order-lifecycle.ts';
import { orderPageAdminFeature } from './order-page/order-page.feature.ts';
import type { OrderPageService } from './order-page/order-page.service.ts';
import { ordersAdminFeature } from './orders/orders.admin-feature.ts';
import { returnsAdminRoutes } from './returns/returns.admin-routes.ts';
import type { ReturnsService } from './returns/returns.service.ts';
import { createStaffGuard } from './staff/staff-guard.ts';
import { staffFeature } from './staff/staff.feature.ts';
import { createStaffService } from './staff/staff.service.ts';
import type { Mailer } from './mail/mailer.ts';
import { settingsAdminRoutes } from './settings/settings.admin-routes.ts';
import { shippingAdminFeature } from './shipping/shipping.admin-feature.ts';
import type { LabelCarrier } from './shipping/label-carrier.ts';
import type { ShopSettingsService } from './settings/settings.service.ts';

export interface BackOfficeOptions {
  db: Db;
  config: Pick<
    Config,
    'env' | 'publicUrl' | 'shop' | 'rateLimitFactor' | 'lowStockThreshold' | 'backgroundJobs' | 'clickAndDrop'
  >;
  secureCookies: boolean;
  counters: RateLimitRepository;
  /** Signs the mark of a browser a staff member signed in from before. */
  cookieSecret: string;
  metrics: MetricsHooks | undefined;
  /** What the other features make and the back office uses (app.ts hands them over). */
  providerOf: (id: string | null) => RefundingProvider | undefined;
  searchEngine: SearchEngine;
  checkoutThread: CheckoutThread | undefined;
  photos: PhotosAdminService;
  catalogueChanged: () => void;
  documents: DocumentsService;
  /** The signed link to an order's VAT invoice (documents.feature.ts). */
  invoiceUrl: (orderNumber: number, linkVersion: number) => string;
  /** The customer's order page, whose links staff revoke (order-page.feature.ts). */
  orderPage: OrderPageService;
  /** Returns (returns.feature.ts): the same service as the order page's. */
  returns: ReturnsService;
  /** Sends staff their set-password links (forgot password, a new member). */
  mailer: Mailer;
  /** The owner's settings (settings.service.ts). */
  settings: ShopSettingsService;
  /** Where shipping labels are bought; undefined when they are off (shipping.feature.ts). */
  labelCarrier: LabelCarrier | undefined;
  /** The labels' clock in milliseconds (a test moves it on instead of waiting). */
  labelClock?: () => number;
}

/**
 * The back office's API (docs/back-office.md), registered under /api/admin: one scope, HTTPS only
 * in production, and every route behind the staff guard unless it says it is public. Each feature
 * keeps its admin part beside its shop part and registers it here.
 */
export const backOfficeFeature: FastifyPluginAsync<BackOfficeOptions> = async (admin, options) => {
  const { db, config, secureCookies } = options;
  const staff = createStaffService(db.kysely, {
    publicUrl: config.publicUrl,
    shopName: async () => (await options.settings.current()).name,
    mailer: options.mailer,
    counters: options.counters,
  });
  const guard = createStaffGuard(staff, secureCookies);
  admin.addHook('onRequest', requireHttps(config.env === 'production').hook);
  admin.addHook('onRequest', guard.guard);
  await admin.register(staffFeature, {
    db,
    staff,
    guard,
    secureCookies,
    counters: options.counters,
    rateLimitFactor: config.rateLimitFactor,
    deviceSecret: options.cookieSecret,
  });
  await admin.register(ordersAdminFeature, {
    db,
    guard,
    providerOf: options.providerOf,
    metrics: options.metrics,
    backgroundJobs: config.backgroundJobs,
    invoiceUrl: options.invoiceUrl,
    releasedRefunds: {
      shopEmail: async () => (await options.settings.current()).ordersEmail,
      publicUrl: config.publicUrl,
    },
  });
  await admin.register(returnsAdminRoutes, { returns: options.returns, guard });
  await admin.register(documentsAdminFeature, { documents: options.documents });
  await admin.register(orderPageAdminFeature, { orderPage: options.orderPage, guard });
  await admin.register(customersAdminFeature, { db, guard });
  await admin.register(dashboardFeature, { db, lowStockThreshold: config.lowStockThreshold });
  await admin.register(auditFeature, { db });
  await admin.register(settingsAdminRoutes, { settings: options.settings, guard });
  await admin.register(catalogAdminFeature, {
    db,
    guard,
    lowStockThreshold: config.lowStockThreshold,
    searchEngine: options.searchEngine,
    photos: options.photos,
    catalogueChanged: options.catalogueChanged,
  });
  await admin.register(basketAdminFeature, { db, guard, checkoutThread: options.checkoutThread });
  await admin.register(shippingAdminFeature, {
    db,
    guard,
    carrier: options.labelCarrier,
    mode: config.clickAndDrop.mode,
    invoiceUrl: options.invoiceUrl,
    packingSlipPdf: options.documents.packingSlipPdf,
    ...(options.labelClock ? { clock: options.labelClock } : {}),
  });
};
