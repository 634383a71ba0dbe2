import { z } from 'zod';
import { MAX_ID } from '../basket-rules.ts';
import { isoDate as day } from './orders.ts';

/** The back office's accounting documents (docs/back-office.md#invoices-and-credit-notes). */

/** GET /api/admin/credit-notes/{creditNoteNumber}: the credit note's own number (CN-000007 is 7). */
export const creditNoteParamsSchema = z.object({ creditNoteNumber: z.coerce.number().int().min(1).max(MAX_ID) });

/** The longest period one batch may cover: a quarter and a little, for the VAT return. */
export const MAX_BATCH_DAYS = 100;

/**
 * GET /api/admin/documents?from=&to=: every invoice and credit note issued from the first day to
 * the last, both included (the shop's days, in UK time), as one PDF for the accountant.
 */
export const documentBatchQuerySchema = z
  .object({ from: day, to: day })
  .refine((q) => q.from <= q.to, { message: 'The last day cannot be before the first.', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < MAX_BATCH_DAYS, {
    message: `A period can be at most ${MAX_BATCH_DAYS} days long: ask for a longer one in parts.`,
    path: ['to'],
  });
export type DocumentBatchQuery = z.infer<typeof documentBatchQuerySchema>;

export const documentViewSchema = z.object({
  /** As printed: INV-000001, CN-000007. */
  number: z.string(),
  issuedAt: z.string(),
  /** The PDF, for staff. */
  url: z.string(),
});

/** What an order's page lists: its invoice (once paid) and a credit note for each refund. */
export const orderDocumentsSchema = z.object({
  invoice: documentViewSchema.nullable(),
  creditNotes: z.array(documentViewSchema.extend({ amount: z.number().int() })),
});
export type OrderDocuments = z.infer<typeof orderDocumentsSchema>;
