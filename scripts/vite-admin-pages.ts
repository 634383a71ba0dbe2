import type { Connect, Plugin } from 'vite';

/** A page address of the back office (no file extension): /admin, /admin/orders/100123?page=2. */
export function isAdminPageRequest(url: string, accept: string | undefined): boolean {
  const path = url.split('?')[0] ?? '';
  if (path !== '/admin' && !path.startsWith('/admin/')) return false;
  return !/\.[a-z0-9]+$/i.test(path) && (accept ?? '').includes('text/html');
}

/**
 * `npm run dev`: Vite's own fallback answers every unknown page with the shop's index.html; the
 * server answers /admin/* with the back office's (src/server/http/web-app.ts), and so does this.
 */
export function adminDeepLinks(): Plugin {
  const rewrite: Connect.NextHandleFunction = (request, _response, next) => {
    if (request.url && isAdminPageRequest(request.url, request.headers.accept)) request.url = '/admin/index.html';
    next();
  };
  return {
    name: 'raag-admin-deep-links',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use(rewrite);
    },
  };
}
