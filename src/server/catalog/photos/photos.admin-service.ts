import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import type { ProductPhotos } from '../../../contract/admin/photos.ts';
import { errorCodes } from '../../../contract/error-codes.ts';
import { photoLimits } from '../../../contract/photos.ts';
import { recordAudit } from '../../audit/audit.repository.ts';
import type { Database } from '../../db/schema.ts';
import { BadRequestError, NotFoundError, RefusedError } from '../../errors.ts';
import type { Staff } from '../../staff/staff.service.ts';
import type { ConversionLimiter } from './conversion-limiter.ts';
import { convertPhoto, type ConvertedPhoto } from './photo-conversion.ts';
import type { PhotoStore } from './photo-store.ts';
import { adminPhotosOf } from './photo-views.ts';
import {
  deletePhoto,
  findProductForPhotos,
  insertPhoto,
  insertVariant,
  listPhotos,
  setPhotoOrder,
} from './photos.repository.ts';

/**
 * A product's photos in the back office (docs/back-office.md#product-photos): upload, reorder,
 * delete, choose the main one (the first). Each change is one transaction with its audit entry; on
 * PostgreSQL it locks the product's row, so two staff changing one product's photos take turns.
 */

/** One file of an upload: its name (for messages only), and a way to save it to a file of our choosing. */
export interface UploadedFile {
  name: string;
  /** Streams the file's bytes to `path`; rejects (413) when it is larger than a photo may be. */
  writeTo(path: string): Promise<void>;
}

export function createPhotosAdminService(
  db: Kysely<Database>,
  deps: {
    store: PhotoStore;
    limiter: ConversionLimiter;
    now?: () => Date;
    /** Told after every change: the shop's kept copies of the catalogue show the photos (ADR 0010). */
    onChange?: () => void;
    /** Where uploads wait their turn as files; the system's temporary folder by default. */
    spoolDir?: string;
  },
) {
  const now = () => (deps.now ?? (() => new Date()))().toISOString();

  async function productOrThrow(trx: Kysely<Database>, productId: number, lock = false) {
    const product = await findProductForPhotos(trx, productId, { lock });
    if (!product) throw new NotFoundError(`There is no product ${productId}`);
    return product;
  }

  async function photoIds(trx: Kysely<Database>, productId: number): Promise<number[]> {
    return (await listPhotos(trx, [productId])).photos.map((photo) => photo.id);
  }

  function tooMany(): RefusedError {
    return new RefusedError(
      409,
      errorCodes.conflict,
      `A product has at most ${photoLimits.maxPhotosPerProduct} photos. Please delete one before adding another.`,
    );
  }

  /** A change to the order (reorder, main): the same set of photos, in a new order, audited. */
  async function reorder(
    productId: number,
    staff: Staff,
    action: string,
    order: (current: number[]) => number[],
  ): Promise<ProductPhotos> {
    await db.transaction().execute(async (trx) => {
      await productOrThrow(trx, productId, true);
      const before = await photoIds(trx, productId);
      const after = order(before);
      await setPhotoOrder(trx, productId, after);
      await recordAudit(trx, {
        staff,
        action,
        entityType: 'product',
        entityId: productId,
        before: { order: before },
        after: { order: after },
        at: now(),
      });
    });
    deps.onChange?.();
    return service.list(productId);
  }

  const service = {
    async list(productId: number): Promise<ProductPhotos> {
      const product = await productOrThrow(db, productId);
      const { photos, variants } = await listPhotos(db, [productId]);
      return {
        productId: product.id,
        productTitle: product.title,
        urlKey: product.url_key,
        photos: adminPhotosOf(photos, variants),
      };
    },

    /**
     * Converts every file (each a 400 naming it when it is not a JPEG, PNG or WebP picture), then
     * adds them all after the product's photos in one transaction, or none of them.
     */
    async upload(productId: number, files: AsyncIterable<UploadedFile>, staff: Staff): Promise<ProductPhotos> {
      await productOrThrow(db, productId);
      const already = (await photoIds(db, productId)).length;
      const converted: ConvertedPhoto[] = [];
      for await (const file of files) {
        if (already + converted.length >= photoLimits.maxPhotosPerProduct) throw tooMany();
        // A place in the queue first (429 now if there is none, the file unread), then the file is
        // saved to disk while it waits: a burst of uploads held every waiting file in memory
        // (24 of 14 MB took the instance to 1.1 GB, issue 31).
        const place = deps.limiter.reserve();
        const dir = await mkdtemp(join(deps.spoolDir ?? tmpdir(), 'shop-photo-'));
        try {
          const path = join(dir, 'upload');
          await file.writeTo(path);
          await place.turn();
          converted.push(await convertPhoto(path, file.name));
        } finally {
          place.release();
          await rm(dir, { recursive: true, force: true });
        }
      }
      if (converted.length === 0) throw new BadRequestError('Please choose a photo to upload.', 'file');
      await db.transaction().execute(async (trx) => {
        await productOrThrow(trx, productId, true);
        // Counted again under the lock: another upload may have landed while these were converted.
        if ((await photoIds(trx, productId)).length + converted.length > photoLimits.maxPhotosPerProduct) {
          throw tooMany();
        }
        const at = now();
        for (const photo of converted) {
          const photoId = await insertPhoto(trx, {
            product_id: productId,
            photo_key: photo.key,
            width: photo.width,
            height: photo.height,
            source_format: photo.sourceFormat,
            source_bytes: photo.sourceBytes,
            created_at: at,
          });
          for (const variant of photo.variants) {
            const variantId = await insertVariant(trx, {
              photo_id: photoId,
              format: variant.format,
              width: variant.width,
              height: variant.height,
              byte_size: variant.bytes.length,
            });
            await deps.store.save(trx, {
              variantId,
              name: { key: photo.key, width: variant.width, format: variant.format },
              bytes: variant.bytes,
            });
          }
          await recordAudit(trx, {
            staff,
            action: 'product.photo.add',
            entityType: 'product',
            entityId: productId,
            after: {
              photoId,
              format: photo.sourceFormat,
              bytes: photo.sourceBytes,
              width: photo.width,
              height: photo.height,
            },
            at,
          });
        }
      });
      deps.onChange?.();
      return service.list(productId);
    },

    /** The photos in the order given, which must name every one of them once. */
    reorder(productId: number, photoIdsInOrder: number[], staff: Staff): Promise<ProductPhotos> {
      return reorder(productId, staff, 'product.photo.reorder', (current) => {
        const same = current.length === photoIdsInOrder.length && current.every((id) => photoIdsInOrder.includes(id));
        if (!same) {
          throw new RefusedError(
            409,
            errorCodes.conflict,
            'The photos have changed since this page was loaded. Please reload and try again.',
          );
        }
        return photoIdsInOrder;
      });
    },

    /** Makes a photo the main image: it moves to the front, the others keep their order. */
    setMain(productId: number, photoId: number, staff: Staff): Promise<ProductPhotos> {
      return reorder(productId, staff, 'product.photo.main', (current) => {
        if (!current.includes(photoId)) throw new NotFoundError(`Product ${productId} has no photo ${photoId}`);
        return [photoId, ...current.filter((id) => id !== photoId)];
      });
    },

    /** Deletes a photo; when it was the main image, the next one becomes main. */
    async remove(productId: number, photoId: number, staff: Staff): Promise<ProductPhotos> {
      await db.transaction().execute(async (trx) => {
        await productOrThrow(trx, productId, true);
        const { photos } = await listPhotos(trx, [productId]);
        const photo = photos.find((p) => p.id === photoId);
        if (!photo || !(await deletePhoto(trx, productId, photoId))) {
          throw new NotFoundError(`Product ${productId} has no photo ${photoId}`);
        }
        await recordAudit(trx, {
          staff,
          action: 'product.photo.delete',
          entityType: 'product',
          entityId: productId,
          before: { photoId, main: photos[0]?.id === photoId, width: photo.width, height: photo.height },
          after: { order: photos.filter((p) => p.id !== photoId).map((p) => p.id) },
          at: now(),
        });
      });
      deps.onChange?.();
      return service.list(productId);
    },
  };
  return service;
}

export type PhotosAdminService = ReturnType<typeof createPhotosAdminService>;
