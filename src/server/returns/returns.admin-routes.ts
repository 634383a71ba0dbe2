import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  adminReturnSchema,
  receiveReturnSchema,
  refundReturnSchema,
  refuseReturnSchema,
  returnIdParams,
  returnPhotoParams,
  returnQueueQuerySchema,
  returnQueueSchema,
} from '../../contract/returns.ts';
import type { StaffGuard } from '../staff/staff-guard.ts';
import type { ReturnsService } from './returns.service.ts';

/** Returns in the back office (docs/back-office.md#returns), for owners and staff alike. */
export const returnsAdminRoutes: FastifyPluginAsyncZod<{ returns: ReturnsService; guard: StaffGuard }> = async (
  app,
  { returns, guard },
) => {
  const params = returnIdParams;
  const answer = { 200: adminReturnSchema };
  app.get(
    '/returns',
    { schema: { querystring: returnQueueQuerySchema, response: { 200: returnQueueSchema } } },
    (request) => returns.queue(request.query.show),
  );
  app.get('/returns/:id', { schema: { params, response: answer } }, (request) => returns.one(request.params.id));
  app.get('/returns/:id/photos/:position', { schema: { params: returnPhotoParams } }, async (request, reply) => {
    const photo = await returns.photo(request.params.id, request.params.position);
    return reply.type(photo.contentType).header('cache-control', 'private, no-store').send(photo.bytes);
  });
  app.post('/returns/:id/authorise', { schema: { params, response: answer } }, (request) =>
    returns.authorise(request.params.id, guard.staffOf(request)),
  );
  app.post('/returns/:id/refuse', { schema: { params, body: refuseReturnSchema, response: answer } }, (request) =>
    returns.refuse(request.params.id, request.body.reason, guard.staffOf(request)),
  );
  app.post('/returns/:id/receive', { schema: { params, body: receiveReturnSchema, response: answer } }, (request) =>
    returns.receive(request.params.id, request.body, guard.staffOf(request)),
  );
  app.post('/returns/:id/refund', { schema: { params, body: refundReturnSchema, response: answer } }, (request) =>
    returns.refund(request.params.id, request.body, guard.staffOf(request)),
  );
};
