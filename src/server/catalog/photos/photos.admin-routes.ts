import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  productPhotoParamsSchema,
  productPhotosParamsSchema,
  productPhotosSchema,
  reorderPhotosSchema,
} from '../../../contract/admin/photos.ts';
import { errorCodes } from '../../../contract/error-codes.ts';
import { apiErrorSchema } from '../../../contract/errors.ts';
import { photoLimits } from '../../../contract/photos.ts';
import { BadRequestError, RefusedError } from '../../errors.ts';
import type { StaffGuard } from '../../staff/staff-guard.ts';
import { multipartFault } from '../../http/multipart-faults.ts';
import type { PhotosAdminService, UploadedFile } from './photos.admin-service.ts';

/**
 * A product's photos in the back office (docs/back-office.md#product-photos). Multipart bodies are
 * taken here only: everywhere else the API still refuses them (415).
 */
export const photosAdminRoutes: FastifyPluginAsyncZod<{ photos: PhotosAdminService; guard: StaffGuard }> = async (
  app,
  { photos, guard },
) => {
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: photoLimits.maxBytes,
      files: photoLimits.maxFilesPerUpload,
      fields: 10,
      fieldSize: 1024,
      parts: photoLimits.maxFilesPerUpload + 10,
    },
  });
  const params = productPhotosParamsSchema;
  const answer = { 200: productPhotosSchema };

  app.get('/products/:id/photos', { schema: { params, response: answer } }, (request) =>
    photos.list(request.params.id),
  );
  app.post(
    '/products/:id/photos',
    {
      config: {
        documentedBody: {
          type: 'object',
          required: ['file'],
          properties: {
            file: {
              type: 'array',
              minItems: 1,
              maxItems: photoLimits.maxFilesPerUpload,
              items: { type: 'string', contentMediaType: 'image/*', description: 'A JPEG, PNG or WebP picture' },
            },
          },
        },
      },
      schema: {
        params,
        consumes: ['multipart/form-data'],
        description: `One or more \`file\` parts: JPEG, PNG or WebP pictures of at most ${photoLimits.maxBytes / 1024 / 1024} MB each, ${photoLimits.maxFilesPerUpload} at a time.`,
        // 429: every place in the conversion queue is taken (Retry-After says when to try again).
        response: { 201: productPhotosSchema, 429: apiErrorSchema },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new RefusedError(415, errorCodes.unsupportedMediaType, 'Send the photos as multipart/form-data.');
      }
      const uploaded = await photos.upload(request.params.id, filesOf(request), guard.staffOf(request));
      return reply.status(201).send(uploaded);
    },
  );
  app.put(
    '/products/:id/photos/order',
    { schema: { params, body: reorderPhotosSchema, response: answer } },
    (request) => photos.reorder(request.params.id, request.body.photoIds, guard.staffOf(request)),
  );
  app.post(
    '/products/:id/photos/:photoId/main',
    { schema: { params: productPhotoParamsSchema, response: answer } },
    (request) => photos.setMain(request.params.id, request.params.photoId, guard.staffOf(request)),
  );
  app.delete(
    '/products/:id/photos/:photoId',
    { schema: { params: productPhotoParamsSchema, response: answer } },
    (request) => photos.remove(request.params.id, request.params.photoId, guard.staffOf(request)),
  );
};

/** The request's file parts as the service reads them; the parser's limits answer in the shop's words. */
async function* filesOf(request: FastifyRequest): AsyncIterable<UploadedFile> {
  const maxMb = photoLimits.maxBytes / 1024 / 1024;
  try {
    for await (const part of request.files()) {
      const name = part.filename || 'The file';
      yield {
        name,
        writeTo: async (path) => {
          const tooLarge = () =>
            new RefusedError(413, errorCodes.payloadTooLarge, `${name}: a photo may be at most ${maxMb} MB.`);
          try {
            await pipeline(part.file, createWriteStream(path, { flags: 'wx' }));
          } catch (error) {
            if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw tooLarge();
            throw multipartFault(error) ?? error;
          }
          // The parser stops a file at the limit and marks it cut short.
          if (part.file.truncated) throw tooLarge();
        },
      };
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new BadRequestError(`Please send at most ${photoLimits.maxFilesPerUpload} photos at a time.`, 'file');
    }
    throw multipartFault(error) ?? error;
  }
}
