import { availableParallelism } from 'node:os';
import type { Db } from '../../db/database.ts';
import { createConversionLimiter } from './conversion-limiter.ts';
import { createDatabasePhotoStore } from './photo-store.ts';
import { createPhotosAdminService } from './photos.admin-service.ts';

/**
 * Product photos' parts as the app uses them: the store (the database's, the only one built;
 * docs/decisions/0011-product-photo-storage.md) and the back office's service, whose conversions
 * take at most half the cores (one on a 2-core machine), with up to 20 more waiting.
 */
export function createPhotoServices(db: Db, options: { onChange?: () => void } = {}) {
  const store = createDatabasePhotoStore(db.kysely);
  const limiter = createConversionLimiter({
    concurrency: Math.max(1, Math.floor(availableParallelism() / 2)),
    maxWaiting: 20,
  });
  return { store, admin: createPhotosAdminService(db.kysely, { store, limiter, ...options }) };
}
