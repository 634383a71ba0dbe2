import type { DocumentBatchQuery } from '../../../../../contract/admin/documents.ts';
import { requestFile } from '../../../../lib/api.ts';

/**
 * Fetches the accountant's batch (every invoice and credit note issued in the period, one PDF) and
 * hands it to the browser as a download. Fetched rather than linked, so a refusal (a period too
 * long) comes back as an error the form shows beside its field, not as a file of JSON.
 */
export async function downloadDocumentBatch(query: DocumentBatchQuery): Promise<string> {
  const search = new URLSearchParams({ from: query.from, to: query.to });
  const { blob, filename = `documents-${query.from}-to-${query.to}.pdf` } = await requestFile(
    `/api/admin/documents?${search}`,
  );
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
  // The click has handed the file over; the browser no longer needs the address.
  setTimeout(() => URL.revokeObjectURL(url), 0);
  return filename;
}
