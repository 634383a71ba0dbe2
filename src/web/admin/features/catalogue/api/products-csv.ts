import type { QueryClient } from '@tanstack/react-query';
import type { ProductImportSummary } from '../../../../../contract/admin/products-csv.ts';
import { requestJson } from '../../../../lib/api.ts';

/** Products as CSV (docs/back-office.md#csv-import-and-export): the export's address, and the import's two calls. */
export const productsCsvHref = '/api/admin/products.csv';

/** What the file would do, and its errors by row and column; nothing is written. */
export function previewProductImport(csv: string): Promise<ProductImportSummary> {
  return requestJson<ProductImportSummary>('/api/admin/products/import/preview', {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: csv,
  });
}

/** The same file applied, all of it or none; the catalogue's lists are asked again. */
export async function applyProductImport(csv: string, queryClient: QueryClient): Promise<ProductImportSummary> {
  const summary = await requestJson<ProductImportSummary>('/api/admin/products/import', {
    method: 'POST',
    headers: { 'content-type': 'text/csv' },
    body: csv,
  });
  await queryClient.invalidateQueries({ queryKey: ['admin', 'catalogue'] });
  await queryClient.invalidateQueries({ queryKey: ['admin', 'stock'] });
  return summary;
}
