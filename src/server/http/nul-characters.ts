import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../errors.ts';

/**
 * PostgreSQL's text cannot hold the NUL character, and no field of the shop needs it: a request
 * carrying one, in its address or anywhere in its body, is refused with a 400 naming where, before
 * it can reach a query and fail there as a 500.
 */
export function registerNulCharacterGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (/%00/i.test(request.url)) throw new BadRequestError('The address must not contain a NUL character', 'url');
  });
  app.addHook('preValidation', async (request) => {
    const field = fieldWithNul(request.body, '');
    if (field !== undefined) throw new BadRequestError(`${field} must not contain a NUL character`, field);
  });
}

/** The path of the first string holding a NUL, or undefined. */
function fieldWithNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at;
    const found = fieldWithNul(inner, at);
    if (found !== undefined) return found;
  }
  return undefined;
}
