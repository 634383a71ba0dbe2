import type { Kysely } from 'kysely';
import type { InvoiceDocument } from '../../contract/documents.ts';
import type { Database } from '../db/schema.ts';
import { issueInvoice } from '../documents/issue-documents.ts';
import { NotFoundError } from '../errors.ts';
import { findOrderByNumber } from './orders.admin-repository.ts';
import { findOrderToInvoice } from './orders.repository.ts';

/**
 * The invoice of a paid order, issued now if it has none: an order paid before the shop issued
 * invoices gets one when first asked for (its time of supply still when it was paid); an order
 * not paid has none (undefined).
 */
export async function invoiceOfPaidOrder(
  db: Kysely<Database>,
  orderNumber: number,
  now: () => Date,
): Promise<InvoiceDocument | undefined> {
  const order = await findOrderByNumber(db, orderNumber);
  if (!order) throw new NotFoundError(`There is no order ${orderNumber}`);
  if (order.status !== 'paid') return undefined;
  return db
    .transaction()
    .execute(
      async (trx) => (await issueInvoice(trx, await findOrderToInvoice(trx, order.id), now().toISOString())).document,
    );
}
