import { BadRequestError } from '../errors.ts';

/**
 * The multipart parser's (busboy's) errors for a body the client got wrong, in the shop's words: a
 * `multipart/form-data` without its boundary, or a body cut short before its closing boundary,
 * was a 500 (an outside attack found them). They are plain errors, known only by their messages
 * (@fastify/busboy `lib/types/multipart.js`, `deps/dicer/lib/Dicer.js`).
 */
export function multipartFault(error: unknown): BadRequestError | undefined {
  const message = error instanceof Error ? error.message : '';
  if (/boundary not found|boundary required/i.test(message))
    return new BadRequestError('The multipart/form-data body needs a boundary in its Content-Type.', 'body');
  if (/unexpected end of multipart data/i.test(message))
    return new BadRequestError('The multipart/form-data body was cut short: its closing boundary is missing.', 'body');
  return undefined;
}
