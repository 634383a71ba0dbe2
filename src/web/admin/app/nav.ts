/**
 * The back office's pages in the nav, each with the call that reads its data: the nav shows a
 * page only when the server's table lets the member make that call (lib/access.ts).
 */
export const navPages = [
  { to: '/', label: 'Dashboard', route: 'GET /dashboard' },
  { to: '/orders', label: 'Orders', route: 'GET /orders' },
  { to: '/labels', label: 'Labels', route: 'GET /labels' },
  { to: '/returns', label: 'Returns', route: 'GET /returns' },
  { to: '/documents', label: 'Documents', route: 'GET /documents' },
  { to: '/customers', label: 'Customers', route: 'GET /customers' },
  { to: '/products', label: 'Products', route: 'GET /products' },
  { to: '/types-and-brands', label: 'Types and brands', route: 'GET /product-types' },
  { to: '/stock', label: 'Stock', route: 'GET /stock' },
  { to: '/packaging', label: 'Packaging', route: 'GET /packagings' },
  { to: '/vouchers', label: 'Vouchers', route: 'GET /vouchers' },
  { to: '/delivery', label: 'Delivery', route: 'GET /delivery' },
  { to: '/audit', label: 'Audit log', route: 'GET /audit' },
  { to: '/staff', label: 'Staff', route: 'GET /staff' },
  { to: '/roles', label: 'Roles', route: 'GET /roles' },
  { to: '/settings', label: 'Settings', route: 'GET /settings' },
  { to: '/account', label: 'My account', route: 'GET /me' },
] as const;
