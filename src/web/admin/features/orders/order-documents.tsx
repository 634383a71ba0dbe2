import { useQuery } from '@tanstack/react-query';
import type { OrderDocuments } from '../../../../contract/admin/documents.ts';
import { formatDate, formatPence } from '../../lib/format.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { orderDocumentsQueryOptions } from './api/documents.ts';

/**
 * The order's VAT invoice and credit notes (docs/back-office.md#invoices-and-credit-notes), each
 * a link to its PDF, opened beside the order as the tracking link is; and, once paid, its packing
 * slip (docs/back-office.md#packing-slips).
 */
export function OrderDocumentsSection({ orderNumber }: { orderNumber: number }) {
  const documents = useQuery(orderDocumentsQueryOptions(orderNumber));
  return (
    <section aria-labelledby="order-documents">
      <h2 id="order-documents">Documents</h2>
      <ErrorAlert error={documents.error} />
      {documents.data && <OrderDocumentsList documents={documents.data} orderNumber={orderNumber} />}
    </section>
  );
}

export function OrderDocumentsList({ documents, orderNumber }: { documents: OrderDocuments; orderNumber: number }) {
  const { invoice, creditNotes } = documents;
  if (!invoice) return <p>No invoice yet: it is issued when the order is paid.</p>;
  return (
    <>
      <DocumentLinks invoice={invoice} creditNotes={creditNotes} />
      {/* Drawn as the order is now, so it can be printed again after a refund put units back. */}
      <p>
        <a href={`/api/admin/orders/${orderNumber}/packing-slip`} target="_blank" rel="noopener">
          Packing slip (PDF)
        </a>
      </p>
    </>
  );
}

function DocumentLinks({
  invoice,
  creditNotes,
}: {
  invoice: NonNullable<OrderDocuments['invoice']>;
  creditNotes: OrderDocuments['creditNotes'];
}) {
  return (
    <ul>
      <li>
        <a href={invoice.url} target="_blank" rel="noopener">
          Invoice {invoice.number} (PDF)
        </a>
        , issued <time dateTime={invoice.issuedAt}>{formatDate(invoice.issuedAt)}</time>
      </li>
      {creditNotes.map((note) => (
        <li key={note.number}>
          <a href={note.url} target="_blank" rel="noopener">
            Credit note {note.number} (PDF)
          </a>
          , {formatPence(note.amount)} refunded, issued{' '}
          <time dateTime={note.issuedAt}>{formatDate(note.issuedAt)}</time>
        </li>
      ))}
    </ul>
  );
}
