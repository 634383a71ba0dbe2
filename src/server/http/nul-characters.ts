import type { FastifyInstance } from 'fastify';
import { BadRequestError } from '../errors.ts';

/**
 * PostgreSQL's text cannot hold the NUL character, and no field of the shop needs it: a request
 * carrying one, in its address or anywhere in its body, is refused with a 400 naming where, before
 * it can reach a query and fail there as a 500.
 *
 * The same walk refuses absurdly deep bodies (docs/rules.md#security): no payload of the shop nests more
 * than a few levels, and a body nested thousands deep must be a 400, not a stack overflow here or
 * in a later step (schema validation, serialisation) that recurses.
 */
export function registerNulCharacterGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (/%00/i.test(request.url)) throw new BadRequestError('The address must not contain a NUL character', 'url');
  });
  app.addHook('preValidation', async (request) => {
    const found = checkBody(request.body);
    if (found === tooDeep) throw new BadRequestError(`body must not be nested more than ${MAX_DEPTH} levels`, 'body');
    if (found !== undefined) throw new BadRequestError(`${found} must not contain a NUL character`, found);
  });
}

/** Far deeper than any payload of the shop, far shallower than a stack can take. */
export const MAX_DEPTH = 32;

const tooDeep = Symbol('too deep');

/**
 * The path of the first string holding a NUL, `tooDeep` for a body nested beyond MAX_DEPTH, or
 * undefined. Iterative (an explicit stack), so no body can overflow the call stack.
 */
function checkBody(body: unknown): string | typeof tooDeep | undefined {
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value: body, path: '', depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop() as { value: unknown; path: string; depth: number };
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return path || 'body';
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_DEPTH) return tooDeep;
    // Pushed in reverse, so the first field is looked at first, as a reader would.
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, inner] = entries[i] as [string, unknown];
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return at;
      stack.push({ value: inner, path: at, depth: depth + 1 });
    }
  }
  return undefined;
}
