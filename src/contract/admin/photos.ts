import { z } from 'zod';
import { idParam, photoSourcesSchema } from '../catalog.ts';
import { photoFormats, photoLimits } from '../photos.ts';

/**
 * A product's photos in the back office (docs/back-office.md#product-photos): upload (multipart,
 * one or more `file` parts), reorder, delete, set the main image. The first photo is the main one.
 */

export const productPhotosParamsSchema = z.object({ id: idParam });
export const productPhotoParamsSchema = z.object({ id: idParam, photoId: idParam });

export const adminPhotoSchema = z.object({
  id: z.number().int(),
  position: z.number().int(),
  main: z.boolean(),
  width: z.number().int(),
  height: z.number().int(),
  sourceFormat: z.enum(['jpeg', 'png', 'webp']),
  sourceBytes: z.number().int(),
  createdAt: z.string(),
  sources: photoSourcesSchema,
  variants: z.array(
    z.object({
      format: z.enum(photoFormats),
      width: z.number().int(),
      height: z.number().int(),
      bytes: z.number().int(),
      url: z.string(),
    }),
  ),
});
export type AdminPhoto = z.infer<typeof adminPhotoSchema>;

export const productPhotosSchema = z.object({
  productId: z.number().int(),
  productTitle: z.string(),
  urlKey: z.string(),
  photos: z.array(adminPhotoSchema),
});
export type ProductPhotos = z.infer<typeof productPhotosSchema>;

/** The product's photos in their new order: every one of them, each once. */
export const reorderPhotosSchema = z.object({
  photoIds: z
    .array(idParam)
    .min(1, 'Name the photos in their new order')
    .max(photoLimits.maxPhotosPerProduct)
    .refine((ids) => new Set(ids).size === ids.length, 'Name each photo once'),
});
export type ReorderPhotos = z.infer<typeof reorderPhotosSchema>;
