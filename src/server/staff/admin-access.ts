import type { AccessTable, Permission, RouteAccess } from '../../contract/admin/permissions.ts';

/**
 * The one table that decides every /api/admin route (issue 37 item 2, docs/back-office.md#permissions):
 * `METHOD /path` as the route is declared under /api/admin, to who may call it. The staff guard reads
 * it on every request and refuses a route it does not name; GET /me sends it to the back office,
 * which shows only what it allows. A new route is refused until it is added here
 * (test/security/admin-permissions.test.ts walks them all).
 */
const orders: Permission[] = ['dispatch', 'refund', 'cancel'];

export const adminAccess = {
  // Signing in and out, and a way back in.
  'POST /sign-in': 'public',
  'POST /forgot-password': 'public',
  'POST /set-password': 'public',
  'POST /sign-out': 'public',
  // A member's own account.
  'POST /sign-out-everywhere': 'member',
  'GET /me': 'member',
  'POST /me/totp/setup': 'member',
  'POST /me/totp/enable': 'member',
  'POST /me/totp/disable': 'member',
  'POST /me/recovery-codes': 'member',

  // Orders: seen by whoever works them; each step by its permission.
  'GET /orders': orders,
  'GET /orders/:orderNumber': orders,
  'POST /orders/:orderNumber/notes': orders,
  'POST /orders/:orderNumber/resend-confirmation': orders,
  // Ends the customer's access to their order page: a matter of the customer's data.
  'POST /orders/:orderNumber/order-link/revoke': ['customers'],
  'GET /orders/:orderNumber/documents': orders,
  'GET /orders/:orderNumber/invoice': ['refund', 'reports', 'dispatch', 'cancel'],
  'GET /orders/:orderNumber/packing-slip': ['dispatch'],
  'GET /packing-slips': ['dispatch'],
  'POST /orders/:orderNumber/dispatch': ['dispatch'],
  'POST /orders/:orderNumber/ready-for-collection': ['dispatch'],
  'POST /orders/:orderNumber/collect': ['dispatch'],
  'POST /orders/:orderNumber/deliver': ['dispatch'],
  'PUT /orders/:orderNumber/delivery-details': ['dispatch'],
  'POST /orders/:orderNumber/refund': ['refund'],
  'POST /orders/:orderNumber/cancel': ['cancel'],

  // Returns: a refund's way in.
  'GET /returns': ['refund'],
  'GET /returns/:id': ['refund'],
  'GET /returns/:id/photos/:position': ['refund'],
  'POST /returns/:id/authorise': ['refund'],
  'POST /returns/:id/receive': ['refund'],
  'POST /returns/:id/refuse': ['refund'],
  'POST /returns/:id/refund': ['refund'],

  // Reports.
  'GET /dashboard': ['reports'],
  'GET /orders.csv': ['reports'],
  'GET /documents': ['reports'],
  'GET /audit': ['reports'],
  'GET /credit-notes/:creditNoteNumber': ['reports', 'refund'],

  // Customers and GDPR.
  'GET /customers': ['customers'],
  'GET /customers/:id': ['customers'],
  'GET /customers/ref/:ref': ['customers'],
  'GET /customers/:id/export': ['customers'],
  'POST /customers/:id/erase': ['customers'],

  // Catalogue and stock.
  'GET /products': ['catalogue'],
  'POST /products': ['catalogue'],
  'GET /products/:id': ['catalogue'],
  'PUT /products/:id': ['catalogue'],
  'POST /products/:id/duplicate': ['catalogue'],
  'POST /products/:id/status': ['catalogue'],
  'GET /products/:id/photos': ['catalogue'],
  'POST /products/:id/photos': ['catalogue'],
  'DELETE /products/:id/photos/:photoId': ['catalogue'],
  'POST /products/:id/photos/:photoId/main': ['catalogue'],
  'PUT /products/:id/photos/order': ['catalogue'],
  'GET /products.csv': ['catalogue'],
  'POST /products/import': ['catalogue'],
  'POST /products/import/preview': ['catalogue'],
  'GET /packagings': ['catalogue'],
  'POST /packagings': ['catalogue'],
  'PUT /packagings/:id': ['catalogue'],
  'DELETE /packagings/:id': ['catalogue'],
  'GET /labels': ['dispatch'],
  'POST /labels': ['dispatch'],
  'GET /labels.pdf': ['dispatch'],
  'GET /labels-and-slips.pdf': ['dispatch'],
  'POST /labels/dispatch': ['dispatch'],
  'POST /labels/:orderId/cancel': ['dispatch'],
  'GET /product-types': ['catalogue'],
  'POST /product-types': ['catalogue'],
  'PUT /product-types/:id': ['catalogue'],
  'DELETE /product-types/:id': ['catalogue'],
  'POST /product-types/:id/reorder': ['catalogue'],
  'GET /brands': ['catalogue'],
  'POST /brands': ['catalogue'],
  'PUT /brands/:id': ['catalogue'],
  'DELETE /brands/:id': ['catalogue'],
  'POST /brands/:id/reorder': ['catalogue'],
  'GET /stock': ['catalogue'],
  'GET /stock/:stockId': ['catalogue'],
  'POST /stock/:stockId/adjustments': ['catalogue'],

  // Prices, vouchers and delivery.
  'GET /vouchers': ['pricing'],
  'POST /vouchers': ['pricing'],
  'GET /vouchers/:id': ['pricing'],
  'PUT /vouchers/:id': ['pricing'],
  'GET /delivery': ['pricing'],
  'POST /delivery-methods': ['pricing'],
  'PUT /delivery-methods/:id': ['pricing'],
  'POST /delivery-methods/order': ['pricing'],
  'POST /countries': ['pricing'],
  'DELETE /countries/:id': ['pricing'],

  // Staff accounts and roles.
  'GET /staff': ['staff'],
  'POST /staff': ['staff'],
  'PATCH /staff/:id': ['staff'],
  'POST /staff/:id/set-password-link': ['staff'],
  'POST /staff/:id/reset-two-factor': ['staff'],
  'GET /roles': ['staff'],
  'POST /roles': ['staff'],
  'PUT /roles/:id': ['staff'],
  'DELETE /roles/:id': ['staff'],

  // Settings.
  'GET /settings': ['settings'],
  'PUT /settings': ['settings'],
  'PUT /settings/low-stock-threshold': ['settings'],
} satisfies AccessTable;

export const ADMIN_PREFIX = '/api/admin';

/** Who may call a route, by its method and its declared URL (`/api/admin/orders/:orderNumber`); undefined when the table does not name it. */
export function accessOf(method: string, url: string | undefined): RouteAccess | undefined {
  if (!url?.startsWith(ADMIN_PREFIX)) return undefined;
  // Fastify answers HEAD with the GET route.
  const key = `${method === 'HEAD' ? 'GET' : method} ${url.slice(ADMIN_PREFIX.length)}`;
  return Object.hasOwn(adminAccess, key) ? (adminAccess as AccessTable)[key] : undefined;
}
