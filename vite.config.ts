import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { adminDeepLinks } from './scripts/vite-admin-pages.ts';
import { devShopIdentity } from './scripts/vite-dev-shop.ts';

const api = `http://localhost:${process.env.PORT ?? 3000}`;
const web = resolve(import.meta.dirname, 'src/web');

export default defineConfig({
  root: 'src/web',
  plugins: [react(), devShopIdentity(), adminDeepLinks()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // The server reads it to preload each page's own chunks (src/server/http/route-preloads.ts).
    manifest: true,
    target: 'es2022',
    rollupOptions: {
      // Two apps: the shop, and the back office (DESIGN.md section 10) with an entry of its own, so
      // nothing of it is in the shop's first load. The server serves admin/index.html for /admin/*.
      input: { shop: resolve(web, 'index.html'), admin: resolve(web, 'admin/index.html') },
    },
  },
  server: {
    port: 5173,
    strictPort: true,
    // Everything the shop's server answers besides the page itself: the API, pictures, the payment
    // sandboxes (a purchase goes through them) and the local inbox (its links open the app here).
    proxy: { '/api': api, '/images': api, '/sandbox': api, '/dev/inbox': api },
  },
});
