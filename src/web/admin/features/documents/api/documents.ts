import type { DocumentBatchQuery } from '../../../../../contract/admin/documents.ts';
import { downloadFile } from '../../../../lib/download.ts';

/**
 * Fetches the accountant's batch (every invoice and credit note issued in the period, one PDF) and
 * hands it to the browser as a download; a refusal (a period too long) is shown beside its field.
 */
export function downloadDocumentBatch(query: DocumentBatchQuery): Promise<string> {
  const search = new URLSearchParams({ from: query.from, to: query.to });
  return downloadFile(`/api/admin/documents?${search}`, `documents-${query.from}-to-${query.to}.pdf`);
}
