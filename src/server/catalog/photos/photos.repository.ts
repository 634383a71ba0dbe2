import type { Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { PhotoFormat } from '../../../contract/photos.ts';
import { dialectOfHandle } from '../../db/database.ts';
import type { Database, ProductPhotoTable, ProductPhotoVariantTable } from '../../db/schema.ts';

/** The SQL of product photos (docs/back-office.md#product-photos). The bytes are the store's (photo-store.ts). */

export type PhotoRow = Selectable<ProductPhotoTable>;
export type VariantRow = Omit<Selectable<ProductPhotoVariantTable>, 'id'>;

/** The product, locked for the rest of the transaction on PostgreSQL (SQLite's writers already take turns). */
export async function findProductForPhotos(
  db: Kysely<Database>,
  productId: number,
  options: { lock?: boolean } = {},
): Promise<{ id: number; title: string; url_key: string } | undefined> {
  let query = db.selectFrom('products').select(['id', 'title', 'url_key']).where('id', '=', productId);
  if (options.lock && dialectOfHandle(db) === 'postgres') query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Products named by their ids, or by a query of them (a product page's key). */
export type ProductIdList = number[] | SelectQueryBuilder<Database & { p: Database['products'] }, 'p', { id: number }>;

/** Some products' photos in their order (the first is the main image). */
export function photoRowsQuery(db: Kysely<Database>, productIds: ProductIdList) {
  return db
    .selectFrom('product_photos')
    .select([
      'id',
      'product_id',
      'photo_key',
      'position',
      'width',
      'height',
      'source_format',
      'source_bytes',
      'created_at',
    ])
    .where('product_id', 'in', productIds)
    .orderBy('product_id')
    .orderBy('position')
    .orderBy('id');
}

/** The sizes and formats made of some photos. */
export async function listPhotoVariants(db: Kysely<Database>, photoIds: number[]): Promise<VariantRow[]> {
  if (photoIds.length === 0) return [];
  return db
    .selectFrom('product_photo_variants')
    .select(['photo_id', 'format', 'width', 'height', 'byte_size'])
    .where('photo_id', 'in', photoIds)
    .orderBy('photo_id')
    .orderBy('format')
    .orderBy('width')
    .execute();
}

/** Photos in their order (the first is the main image) with their variants, for some products. */
export async function listPhotos(
  db: Kysely<Database>,
  productIds: number[],
): Promise<{ photos: PhotoRow[]; variants: VariantRow[] }> {
  if (productIds.length === 0) return { photos: [], variants: [] };
  const photos = await photoRowsQuery(db, productIds).execute();
  // Most products in a page of results have no photos: then there are no variants to look for.
  return {
    photos,
    variants: await listPhotoVariants(
      db,
      photos.map((photo) => photo.id),
    ),
  };
}

export async function insertPhoto(db: Kysely<Database>, photo: Omit<PhotoRow, 'id' | 'position'>): Promise<number> {
  const last = await db
    .selectFrom('product_photos')
    .select((eb) => eb.fn.max('position').as('position'))
    .where('product_id', '=', photo.product_id)
    .executeTakeFirst();
  const inserted = await db
    .insertInto('product_photos')
    .values({ ...photo, position: Number(last?.position ?? 0) + 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export async function insertVariant(db: Kysely<Database>, variant: VariantRow): Promise<number> {
  const inserted = await db
    .insertInto('product_photo_variants')
    .values(variant)
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Deletes one of the product's photos (its variants and bytes go with it); false when it is not there. */
export async function deletePhoto(db: Kysely<Database>, productId: number, photoId: number): Promise<boolean> {
  const deleted = await db
    .deleteFrom('product_photos')
    .where('id', '=', photoId)
    .where('product_id', '=', productId)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Numbers the product's photos 1, 2, 3 ... in the order given. */
export async function setPhotoOrder(db: Kysely<Database>, productId: number, photoIds: number[]): Promise<void> {
  for (const [index, id] of photoIds.entries()) {
    await db
      .updateTable('product_photos')
      .set({ position: index + 1 })
      .where('id', '=', id)
      .where('product_id', '=', productId)
      .execute();
  }
}

// The database store's bytes (photo-store.ts).

export async function insertVariantBytes(db: Kysely<Database>, variantId: number, bytes: Buffer): Promise<void> {
  await db.insertInto('product_photo_bytes').values({ variant_id: variantId, bytes }).execute();
}

/** The bytes served at `/images/photos/{key}-{width}.{format}`; any photo with that key has the same ones. */
export async function readVariantBytes(
  db: Kysely<Database>,
  name: { key: string; width: number; format: PhotoFormat },
): Promise<Buffer | undefined> {
  const row = await db
    .selectFrom('product_photos as p')
    .innerJoin('product_photo_variants as v', 'v.photo_id', 'p.id')
    .innerJoin('product_photo_bytes as b', 'b.variant_id', 'v.id')
    .select('b.bytes')
    .where('p.photo_key', '=', name.key)
    .where('v.format', '=', name.format)
    .where('v.width', '=', name.width)
    .limit(1)
    .executeTakeFirst();
  return row?.bytes;
}

/**
 * The smallest WebP of each product's main photo (its first), for printing small beside an order's
 * lines (a packing slip): its photo key and width, to read through the photo store.
 */
export async function findMainPhotoThumbnails(db: Kysely<Database>, productIds: readonly number[]) {
  if (productIds.length === 0) return [];
  const rows = await db
    .selectFrom('product_photos as p')
    .innerJoin('product_photo_variants as v', 'v.photo_id', 'p.id')
    .select(['p.product_id', 'p.photo_key', 'p.position', 'v.width'])
    .where('p.product_id', 'in', [...productIds])
    .where('v.format', '=', 'webp')
    .orderBy('p.product_id')
    .orderBy('p.position')
    .orderBy('v.width')
    .execute();
  const first = new Map<number, { productId: number; key: string; width: number }>();
  for (const row of rows)
    if (!first.has(row.product_id))
      first.set(row.product_id, { productId: row.product_id, key: row.photo_key, width: row.width });
  return [...first.values()];
}
