import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { type ApiError } from '../../contract/errors.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { BadRequestError, NotFoundError, RefusedError, UpstreamUnavailableError } from '../errors.ts';
import { isDatabaseUnavailable } from '../db/database.ts';
import { StalledRequestError } from './in-flight.ts';
import { withSecurityHeadersBeforeRouting } from './security-headers.ts';

/**
 * One error shape for every answer (docs/rules.md#api-answers-and-errors): bad input is a 400 naming each field,
 * unknown things a 404, and a 500 only for bugs, logged with the request id and never detailed.
 */

function body(code: string, message: string, fields?: Array<{ field: string; message: string }>): ApiError {
  return { error: { code, message, ...(fields ? { fields } : {}) } };
}

const statusCodes: Record<number, string> = {
  400: errorCodes.validation,
  404: errorCodes.notFound,
  413: errorCodes.payloadTooLarge,
  415: errorCodes.unsupportedMediaType,
  429: errorCodes.tooManyRequests,
};

/**
 * Fastify's `frameworkErrors` option: the router's own refusals (an address that does not decode,
 * FST_ERR_BAD_URL; a parameter over its length) come before any route or hook, and would otherwise
 * answer in Fastify's shape. They answer in the shop's.
 */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  withSecurityHeadersBeforeRouting(reply);
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    const message = error.code === 'FST_ERR_BAD_URL' ? 'The address is not valid' : error.message;
    void reply
      .status(status)
      .send(body(statusCodes[status] ?? errorCodes.validation, message, [{ field: 'url', message }]));
    return;
  }
  reply.log.error({ err: error }, 'router error');
  void reply.status(500).send(body(errorCodes.internal, 'Something went wrong on our side. Please try again.'));
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const fields = error.validation.map((issue) => {
        const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
        return { field: path || error.validationContext || 'body', message: issue.message ?? 'is invalid' };
      });
      const names = [...new Set(fields.map((f) => f.field))].join(', ');
      return reply.status(400).send(body(errorCodes.validation, `Invalid ${names}`, fields));
    }
    if (error instanceof RefusedError) {
      const fields = error.field ? [{ field: error.field, message: error.message }] : undefined;
      if (error.retryAfterSeconds !== undefined) reply.header('retry-after', String(error.retryAfterSeconds));
      return reply.status(error.status).send(body(error.code, error.message, fields));
    }
    if (error instanceof NotFoundError) {
      return reply.status(404).send(body(errorCodes.notFound, error.message));
    }
    if (error instanceof BadRequestError) {
      const fields = error.fields ?? (error.field ? [{ field: error.field, message: error.message }] : undefined);
      return reply.status(400).send(body(errorCodes.validation, error.message, fields));
    }
    if (error instanceof UpstreamUnavailableError) {
      request.log.warn({ err: error }, 'upstream unavailable');
      return reply.status(503).send(body('UPSTREAM_UNAVAILABLE', 'Please try again shortly.'));
    }
    if (isDatabaseUnavailable(error)) {
      // Unreachable, hung, timed out or locked (docs/rules.md#api-answers-and-errors): a quick "try again",
      // not a 500 after seconds.
      request.log.warn({ err: error }, 'database unavailable');
      return reply
        .status(503)
        .header('retry-after', '5')
        .send(body('DATABASE_UNAVAILABLE', 'Please try again shortly.'));
    }
    if (error instanceof StalledRequestError) {
      // The shop is stopping and this request's body stopped arriving: answer, and let go of the connection.
      request.log.warn('request still arriving when the shop stopped; answered 503');
      return reply.status(503).header('connection', 'close').send(body(error.code, 'Please try again shortly.'));
    }
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply
        .status(400)
        .send(
          body(errorCodes.badJson, 'The request body is not valid JSON', [{ field: 'body', message: error.message }]),
        );
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send(body(statusCodes[status] ?? error.code ?? 'BAD_REQUEST', error.message));
    }
    if (isResponseSerializationError(error))
      request.log.error({ issues: error.cause.issues }, 'response did not match its schema');
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send(body(errorCodes.internal, 'Something went wrong on our side. Please try again.'));
  });
}
