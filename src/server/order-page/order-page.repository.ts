import type { Kysely } from 'kysely';
import { loadStockRows } from '../catalog/catalog.repository.ts';
import type { Database } from '../db/schema.ts';

/** Each stock entry's picture (its product's photo, or its drawing), when the shop has one. */
export async function picturesOfStock(db: Kysely<Database>, stockIds: number[]): Promise<Map<number, string>> {
  const rows = await loadStockRows(db, [...new Set(stockIds)]);
  const pictures = new Map<number, string>();
  for (const row of rows) {
    const url = row.photo_url ?? row.image_url;
    if (url) pictures.set(row.id, url);
  }
  return pictures;
}
