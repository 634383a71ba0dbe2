import type { FastifyPluginAsync } from 'fastify';
import { photoContentTypes, photoFilePattern, type PhotoFormat } from '../../../contract/photos.ts';
import type { PhotoStore } from './photo-store.ts';

const ONE_YEAR = 365 * 24 * 60 * 60;

/**
 * Uploaded photos at `/images/photos/{key}-{width}.{avif|webp}` (src/contract/photos.ts), from the
 * store every instance shares. A name's content never changes (the key hashes the upload and its
 * conversion), so answers are cached for a year and an ETag of the name answers 304 without a
 * look-up. Nothing is kept in memory: a deleted photo is gone from every instance at once.
 */
export const photoFileRoutes: FastifyPluginAsync<{ store: PhotoStore }> = async (app, { store }) => {
  app.get<{ Params: { file: string } }>('/images/photos/:file', async (request, reply) => {
    const match = photoFilePattern.exec(request.params.file);
    if (!match) return reply.status(404).type('text/plain').send('No such image');
    const [, key = '', width, format] = match as unknown as [string, string, string, PhotoFormat];
    const etag = `"${key}-${width}-${format}"`;
    reply.header('cache-control', `public, max-age=${ONE_YEAR}, immutable`).header('etag', etag);
    if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.status(304).send();
    const bytes = await store.read({ key, width: Number(width), format });
    if (!bytes) return reply.status(404).header('cache-control', 'no-store').type('text/plain').send('No such image');
    return reply.type(photoContentTypes[format]).send(bytes);
  });
};
