import { z } from 'zod/v4';

/**
 * Zod as the browser builds have it (vite.config.ts points `zod` here): told not to compile
 * schemas with `new Function`. Left to itself, zod finds out whether it may by trying once, as
 * each object schema is made; the shop's Content-Security-Policy forbids eval
 * (security-headers.ts), so the browser refused that try and reported it as a violation on every
 * page (Lighthouse's best practices count it) before zod went without. Every module that makes a
 * schema imports zod, so through this module the setting comes before the first schema, however
 * the build cuts its chunks. The server's zod is left as it is: no policy stops it there.
 */
z.config({ jitless: true });

export * from 'zod/v4';
export { z, z as default };
