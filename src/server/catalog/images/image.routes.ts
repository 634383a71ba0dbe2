import type { FastifyPluginAsync } from 'fastify';
import { IMAGE_VARIANTS, drawProductImage, isImageKind } from './drawings.ts';

const ONE_YEAR = 365 * 24 * 60 * 60;
const drawn = new Map<string, string>();

/** Product pictures, drawn once per kind and variant and cached by browsers for a year. */
export const productImageRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { file: string } }>('/images/products/:file', (request, reply) => {
    const match = /^([a-z-]+)-(\d{1,2})\.svg$/.exec(request.params.file);
    const kind = match?.[1] ?? '';
    const variant = Number(match?.[2]);
    if (!isImageKind(kind) || !(variant >= 1 && variant <= IMAGE_VARIANTS)) {
      return reply.status(404).type('text/plain').send('No such image');
    }
    const key = `${kind}-${variant}`;
    let svg = drawn.get(key);
    if (svg === undefined) {
      svg = drawProductImage(kind, variant);
      drawn.set(key, svg);
    }
    return reply
      .header('cache-control', `public, max-age=${ONE_YEAR}, immutable`)
      .type('image/svg+xml; charset=utf-8')
      .send(svg);
  });
};
