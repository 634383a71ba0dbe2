import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';
const web = resolve(import.meta.dirname, 'src/web');

/**
 * Two apps, built one after the other into one folder: the shop, then (`--mode admin`) the back
 * office (docs/architecture.md#back-office). Built together, the code they share was cut into small chunks
 * of its own, five more requests on the shop's first load; apart, the shop's chunks are what the
 * shop alone needs and the back office brings its own copy of what it shares.
 */
export default defineConfig(({ mode, isSsrBuild }): UserConfig => ({
  root: 'src/web',
  // The server-rendering build (`--ssr entry-server.tsx`, into dist/ssr) needs only code: the
  // browser's build has the files.
  ...(isSsrBuild ? { publicDir: false } : {}),
  plugins: [react()],
  // The browser's zod never tries eval, which the pages' policy forbids (src/web/lib/zod-without-eval.ts).
  ...(isSsrBuild
    ? {}
    : { resolve: { alias: [{ find: /^zod$/, replacement: resolve(web, 'lib/zod-without-eval.ts') }] } }),
  build: {
    outDir: '../../dist/web',
    emptyOutDir: mode !== 'admin',
    // The server reads the shop's to preload each page's own chunks (src/server/http/route-preloads.ts).
    manifest: mode !== 'admin' && !isSsrBuild,
    target: 'es2022',
    rollupOptions: {
      // The server serves admin/index.html for /admin/*; both apps' chunks are under /assets.
      input: mode === 'admin' ? { admin: resolve(web, 'admin/index.html') } : { shop: resolve(web, 'index.html') },
    },
  },
  // No `server` settings: `npm run dev` runs Vite inside the shop's server, on its port
  // (src/server/http/dev-web.ts), which answers the pages, the API and everything else.
}));
