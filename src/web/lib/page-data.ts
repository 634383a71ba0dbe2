import type { QueryClient } from '@tanstack/react-query';
import { PAGE_DATA_ELEMENT_ID, type PageDataEntry } from '../../contract/page-data.ts';

/**
 * Puts the catalogue answers the server wrote into the page (each page's loader, src/contract/page-loaders.ts) into the
 * query cache before the first render, so the page draws them without asking the API again. They
 * count as fetched now: fresh for each query's own staleTime, as if the app had just asked.
 */
export function seedPageData(client: QueryClient, root: ParentNode = document): void {
  const text = root.querySelector(`#${PAGE_DATA_ELEMENT_ID}`)?.textContent;
  if (!text) return;
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return; // Without the data the page asks the API, as it can always do.
  }
  if (!Array.isArray(entries)) return;
  for (const entry of entries as PageDataEntry[]) {
    if (Array.isArray(entry?.key)) client.setQueryData(entry.key, entry.data);
  }
}
