import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  cancellationOptionsSchema,
  cancellationParamsSchema,
  cancellationRequestSchema,
  cancellationResultSchema,
} from '../../contract/cancellation.ts';
import { apiErrorSchema } from '../../contract/errors.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import type { Cancellations } from './cancellation.service.ts';

/**
 * Cancelling before dispatch from the customer's order page (docs/rules.md#cancelling-before-dispatch).
 * The key is the order page's secret: limited per address like the recovery link, and a wrong,
 * revoked or guessed key gets the same 404.
 */
export const cancellationRoutes: FastifyPluginAsyncZod<{
  cancellations: Cancellations;
  rateLimitFactor: number;
}> = async (app, { cancellations, rateLimitFactor }) => {
  app.get(
    '/order-page/:key/cancellation',
    {
      ...perMinute(30, rateLimitFactor),
      schema: { params: cancellationParamsSchema, response: { 200: cancellationOptionsSchema, 404: apiErrorSchema } },
    },
    (request) => cancellations.options(request.params.key),
  );
  app.post(
    '/order-page/:key/cancellation',
    {
      ...perMinute(10, rateLimitFactor),
      schema: {
        params: cancellationParamsSchema,
        body: cancellationRequestSchema,
        response: { 200: cancellationResultSchema, 404: apiErrorSchema, 409: apiErrorSchema },
      },
    },
    (request) => cancellations.cancel(request.params.key, request.body),
  );
};
