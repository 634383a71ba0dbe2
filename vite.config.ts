import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { devShopIdentity } from './scripts/vite-dev-shop.ts';

const api = `http://localhost:${process.env.PORT ?? 3000}`;

export default defineConfig({
  root: 'src/web',
  plugins: [react(), devShopIdentity()],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // The server reads it to preload each page's own chunks (src/server/http/route-preloads.ts).
    manifest: true,
    target: 'es2022',
  },
  server: {
    port: 5173,
    strictPort: true,
    // Everything the shop's server answers besides the page itself: the API, pictures, the payment
    // sandboxes (a purchase goes through them) and the local inbox (its links open the app here).
    proxy: { '/api': api, '/images': api, '/sandbox': api, '/dev/inbox': api },
  },
});
