import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { registerOpenApi } from '../../src/server/http/openapi.ts';
import { registerZod } from '../../src/server/http/zod.ts';
import { registerErrorHandling } from '../../src/server/http/errors.ts';
import { NotFoundError } from '../../src/server/errors.ts';
import { checkAnswersAgainstOpenApi } from './openapi-answers.ts';

/**
 * The check every test app runs (test-app.ts) tells of answers unlike the OpenAPI document. A small
 * app of its own, whose routes answer what their schemas do not say, with responses unchecked as
 * production leaves them, so that only the check stands between the answer and the client.
 */
describe('checkAnswersAgainstOpenApi', () => {
  let app: FastifyInstance | undefined;
  afterEach(() => app?.close());

  async function appTelling(mismatches: string[]): Promise<FastifyInstance> {
    const fastify = Fastify();
    registerZod(fastify, false);
    registerErrorHandling(fastify);
    await registerOpenApi(fastify, { publicUrl: 'http://localhost', production: true });
    const price = z.object({ pence: z.number().int() });
    // Without the zod type provider's types, so that the handler may answer what the schema does not say.
    fastify.get<{ Params: { shape: string } }>(
      '/api/price/:shape',
      { schema: { params: z.object({ shape: z.string() }), response: { 200: price } } },
      async (request, reply) => {
        if (request.params.shape === 'teapot') return reply.status(418).send({ pence: 1 });
        if (request.params.shape === 'missing') throw new NotFoundError('No such price');
        // Production's serializer sends whatever the handler gives.
        return reply.send(request.params.shape === 'right' ? { pence: 1250 } : { pence: '12.50' });
      },
    );
    checkAnswersAgainstOpenApi(fastify, (mismatch) => mismatches.push(mismatch));
    await fastify.ready();
    return fastify;
  }

  it('tells of nothing when the answer is as documented, the error answers included', async () => {
    const mismatches: string[] = [];
    app = await appTelling(mismatches);
    expect((await app.inject('/api/price/right')).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/price/right', query: { x: '1' } })).statusCode).toBe(200);
    expect((await app.inject('/api/price/missing')).json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect(mismatches).toEqual([]);
  });

  it('tells of an answer whose body the documented schema refuses', async () => {
    const mismatches: string[] = [];
    app = await appTelling(mismatches);
    await app.inject('/api/price/wrong');
    expect(mismatches).toEqual([
      expect.stringMatching(
        /^GET \/api\/price\/:shape answered 200, unlike the OpenAPI document: .*pence.*must be integer/,
      ),
    ]);
  });

  it('tells of a status the document does not list', async () => {
    const mismatches: string[] = [];
    app = await appTelling(mismatches);
    await app.inject('/api/price/teapot');
    expect(mismatches).toEqual(['GET /api/price/:shape answered 418, a status the OpenAPI document does not list']);
  });
});
