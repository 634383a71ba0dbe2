import type { FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';

/**
 * Requests are always validated by their zod schema. Responses are checked against theirs in
 * tests and development, where a mismatch is a bug worth a loud failure; in production the
 * services' typed results go straight to JSON, which keeps the hot path cheap.
 */
export function registerZod(app: FastifyInstance, checkResponses: boolean): void {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(checkResponses ? serializerCompiler : () => (data) => JSON.stringify(data));
}
