import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { documentLinkParamsSchema } from '../../contract/documents.ts';
import { perMinute } from '../http/rate-limit/per-minute.ts';
import { sendPdf } from './documents.admin-routes.ts';
import type { DocumentsService } from './documents.service.ts';

/**
 * A customer's invoice or credit note by the signed link in their e-mail, no account needed
 * (docs/rules.md#invoices-and-credit-notes). A wrong signature answers as a document that does not
 * exist, so a stranger learns nothing by guessing numbers. Each opening draws in the thread the
 * back office prints in, so one address opens 20 a minute: a link passed round cannot starve staff.
 */
export const documentsRoutes: FastifyPluginAsyncZod<{ documents: DocumentsService; rateLimitFactor: number }> = async (
  app,
  { documents, rateLimitFactor },
) => {
  app.get(
    '/documents/:kind/:number/:signature',
    { schema: { params: documentLinkParamsSchema }, ...perMinute(20, rateLimitFactor) },
    async (request, reply) =>
      sendPdf(reply, await documents.pdfByLink(request.params.kind, request.params.number, request.params.signature)),
  );
};
