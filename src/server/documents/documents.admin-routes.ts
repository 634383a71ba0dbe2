import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  creditNoteParamsSchema,
  documentBatchQuerySchema,
  orderDocumentsSchema,
} from '../../contract/admin/documents.ts';
import { orderNumberParamsSchema } from '../../contract/admin/orders.ts';
import type { DocumentsService, Pdf } from './documents.service.ts';

/** Invoices, credit notes and the accountant's batch in the back office (docs/back-office.md#invoices-and-credit-notes). */
export const documentsAdminRoutes: FastifyPluginAsyncZod<{ documents: DocumentsService }> = async (
  app,
  { documents },
) => {
  app.get(
    '/orders/:orderNumber/documents',
    { schema: { params: orderNumberParamsSchema, response: { 200: orderDocumentsSchema } } },
    (request) => documents.ofOrder(request.params.orderNumber),
  );
  app.get('/orders/:orderNumber/invoice', { schema: { params: orderNumberParamsSchema } }, async (request, reply) =>
    sendPdf(reply, await documents.invoicePdf(request.params.orderNumber)),
  );
  app.get('/credit-notes/:creditNoteNumber', { schema: { params: creditNoteParamsSchema } }, async (request, reply) =>
    sendPdf(reply, await documents.creditNotePdf(request.params.creditNoteNumber)),
  );
  app.get(
    '/orders/:orderNumber/packing-slip',
    { schema: { params: orderNumberParamsSchema } },
    async (request, reply) => sendPdf(reply, await documents.packingSlipPdf(request.params.orderNumber)),
  );
  app.get('/packing-slips', async (_request, reply) => sendPdf(reply, await documents.packingSlipsPdf(new Date())));
  app.get('/documents', { schema: { querystring: documentBatchQuerySchema } }, async (request, reply) =>
    sendPdf(reply, await documents.batchPdf(request.query), 'attachment'),
  );
};

/** A PDF, shown in the browser's viewer unless it is a batch to keep; never kept by a cache. */
export function sendPdf(reply: FastifyReply, pdf: Pdf, disposition: 'inline' | 'attachment' = 'inline') {
  return reply
    .header('content-disposition', `${disposition}; filename="${pdf.filename}"`)
    .header('cache-control', 'no-store')
    .type('application/pdf')
    .send(pdf.bytes);
}
