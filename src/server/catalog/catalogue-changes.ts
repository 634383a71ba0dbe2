import type { Kysely } from 'kysely';
import { errorCodes } from '../../contract/error-codes.ts';
import type { Database } from '../db/schema.ts';
import { RefusedError } from '../errors.ts';

/**
 * What the back office's catalogue services (products.admin-service.ts, taxonomy.admin-service.ts)
 * share: every change is one transaction with its audit entry; once it has landed, `onChange`
 * clears this instance's catalogue and search caches, so the change shows here at once (other
 * instances' caches let it in within their seconds: ADR 0010).
 */

export type Db = Kysely<Database>;
export type Tx = Kysely<Database>;
export type Direction = 'up' | 'down';

export interface CatalogueChangeOptions {
  onChange: () => void;
  now?: () => Date;
}

export function catalogueChanges(db: Db, options: CatalogueChangeOptions) {
  const now = () => (options.now?.() ?? new Date()).toISOString();
  return {
    /** One staff change and its audit entry, or none of it; then this instance forgets what it kept. */
    async change<T>(work: (trx: Tx, at: string) => Promise<T>): Promise<T> {
      const result = await db.transaction().execute((trx) => work(trx, now()));
      options.onChange();
      return result;
    },
  };
}

export function conflict(message: string, field?: string): never {
  throw new RefusedError(409, errorCodes.conflict, message, field);
}

export { plural } from '../../contract/words.ts';

/** Only what changed, before and after. */
export function changes(before: Record<string, unknown>, after: Record<string, unknown>) {
  const changed = Object.keys(after).filter((key) => JSON.stringify(before[key]) !== JSON.stringify(after[key]));
  return {
    before: Object.fromEntries(changed.map((key) => [key, before[key]])),
    after: Object.fromEntries(changed.map((key) => [key, after[key]])),
  };
}

/** `ids` with `id` moved one place up or down; the same order at either end. */
export function moved(ids: number[], id: number, direction: Direction): number[] {
  const from = ids.indexOf(id);
  const to = direction === 'up' ? from - 1 : from + 1;
  if (from < 0 || to < 0 || to >= ids.length) return ids;
  const next = [...ids];
  [next[from], next[to]] = [next[to] as number, next[from] as number];
  return next;
}
