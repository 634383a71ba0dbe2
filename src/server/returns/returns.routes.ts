import fastifyMultipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiErrorSchema } from '../../contract/errors.ts';
import {
  orderPageKeyParams,
  orderReturnsSchema,
  returnPhotoLimits,
  shopperReturnSchema,
} from '../../contract/returns.ts';
import { BadRequestError, NotFoundError } from '../errors.ts';
import { multipartFault } from '../http/multipart-faults.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import { reencodeReturnPhoto } from './return-photos.ts';
import type { ReturnPhoto, ReturnsService } from './returns.service.ts';

/**
 * A shopper's returns from the order page (docs/rules.md#returns), under the page's signed key:
 * a key that is wrong, revoked or guessed gets the same 404. Rate-limited like the recovery link.
 */
export const returnsRoutes: FastifyPluginAsyncZod<{
  returns: ReturnsService;
  /** The order a link's key opens, or undefined alike for any key that does not (order-links.ts). */
  orderOfKey: (key: string) => Promise<number | undefined>;
  rateLimitFactor: number;
}> = async (app, { returns, orderOfKey, rateLimitFactor }) => {
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: returnPhotoLimits.maxBytes,
      files: returnPhotoLimits.maxPhotos,
      fields: 5,
      fieldSize: 64 * 1024,
      parts: returnPhotoLimits.maxPhotos + 5,
    },
  });
  const orderOf = async (key: string) => {
    const orderId = await orderOfKey(key);
    if (orderId === undefined) throw new NotFoundError('There is no order at this address');
    return orderId;
  };
  app.get(
    '/order-page/:key/returns',
    {
      ...perMinute(30, rateLimitFactor),
      schema: { params: orderPageKeyParams, response: { 200: orderReturnsSchema } },
    },
    async (request) => returns.forOrder(await orderOf(request.params.key)),
  );
  app.post(
    '/order-page/:key/returns',
    {
      ...perMinute(30, rateLimitFactor),
      schema: {
        params: orderPageKeyParams,
        description: `JSON, or multipart/form-data with the fields \`reason\`, \`note\`, \`lines\` (JSON) and up to ${returnPhotoLimits.maxPhotos} \`photo\` parts (JPEG, PNG or WebP) for damage.`,
        response: { 201: shopperReturnSchema, 400: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    async (request, reply) => {
      const orderId = await orderOf(request.params.key);
      const { body, photos } = request.isMultipart() ? await multipartOf(request) : { body: request.body, photos: [] };
      return reply.status(201).send(await returns.request(orderId, body, photos));
    },
  );
};

/** The request's fields and photos, each photo drawn again from its pixels (return-photos.ts). */
async function multipartOf(request: FastifyRequest): Promise<{ body: unknown; photos: ReturnPhoto[] }> {
  const fields: Record<string, string> = {};
  const photos: ReturnPhoto[] = [];
  const maxMb = returnPhotoLimits.maxBytes / 1024 / 1024;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value);
        continue;
      }
      const name = part.filename || 'The photo';
      let bytes: Buffer;
      try {
        bytes = await part.toBuffer();
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
          throw new BadRequestError(`${name}: a photo may be at most ${maxMb} MB.`, 'photo');
        throw multipartFault(error) ?? error;
      }
      if (bytes.length === 0) continue;
      photos.push(await reencodeReturnPhoto(bytes, name));
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT')
      throw new BadRequestError(`Please send at most ${returnPhotoLimits.maxPhotos} photos.`, 'photo');
    throw multipartFault(error) ?? error;
  }
  let lines: unknown;
  try {
    lines = JSON.parse(fields.lines ?? '[]');
  } catch {
    throw new BadRequestError('Please choose the items to return', 'lines');
  }
  return { body: { reason: fields.reason, note: fields.note, lines }, photos };
}
