import type { Kysely } from 'kysely';
import type { PhotoFormat } from '../../../contract/photos.ts';
import type { Database } from '../../db/schema.ts';
import { insertVariantBytes, readVariantBytes } from './photos.repository.ts';

/**
 * Where the photos' bytes are kept (docs/decisions/0011-product-photo-storage.md). The rows that
 * describe them are always in the database; only the bytes move. The database store is the one
 * built: every instance on the database serves every photo, and a backup holds them. An
 * S3-compatible store would put each variant under its name (`{key}-{width}.{format}`), read it
 * back (or let a CDN in front of the bucket serve it), and delete the objects no photo names any more.
 */
export interface PhotoStore {
  /** Keeps a variant's bytes; `trx` is the transaction recording the photo, so both land or neither. */
  save(trx: Kysely<Database>, variant: { variantId: number; name: PhotoName; bytes: Buffer }): Promise<void>;
  /** The bytes of the variant with that name, if any photo has it. */
  read(name: PhotoName): Promise<Buffer | undefined>;
}

export interface PhotoName {
  key: string;
  width: number;
  format: PhotoFormat;
}

/** The default store: a table of bytes beside the variants', removed with them (on delete cascade). */
export function createDatabasePhotoStore(db: Kysely<Database>): PhotoStore {
  return {
    save: (trx, variant) => insertVariantBytes(trx, variant.variantId, variant.bytes),
    read: (name) => readVariantBytes(db, name),
  };
}
