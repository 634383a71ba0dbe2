import { enableCompileCache } from 'node:module';

/**
 * Process entry. Node keeps the compiled code of the shop and its packages in a disk cache, so a
 * restart (after a deploy or a crash) loads in a fraction of the first start's time (serving
 * again within 2 s; docs/rules.md#operations). The rest is imported only after the cache is on.
 */
enableCompileCache();
await import('./start.ts');
