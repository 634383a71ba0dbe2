import { AdminPage } from '../../lib/admin-page.tsx';
import { downloadDocumentBatch } from './api/documents.ts';
import { BatchForm } from './batch-form.tsx';

// The shop's days are UK days (the batch's period is read so on the server too).
const ukDay = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' });

/**
 * The accountant's batch (every invoice and credit note issued in a period, as one PDF) and the
 * packer's (a packing slip for every order waiting to be dispatched).
 */
export default function DocumentsPage() {
  const today = ukDay.format(new Date());
  return (
    <AdminPage title="Documents">
      <p>
        Every VAT invoice and credit note issued in a period, one after another in one PDF, for the accountant. Each
        order’s own documents are on its page.
      </p>
      <BatchForm defaultValues={{ from: `${today.slice(0, 8)}01`, to: today }} onDownload={downloadDocumentBatch} />
      <h2>Packing slips</h2>
      <p>
        <a href="/api/admin/packing-slips" target="_blank" rel="noopener">
          Packing slips for every order waiting to be dispatched (PDF)
        </a>
        : a page each, the oldest order first.
      </p>
    </AdminPage>
  );
}
