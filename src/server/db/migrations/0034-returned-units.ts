import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../database.ts';

/**
 * Units a refund put back in stock are of two kinds: units never sent (a cancellation before
 * dispatch), and units sent that came back (a return). Only the first reduce what is still to
 * send, and only the second reduce what may still be returned (docs/rules.md#returns). Each refund
 * line, and each line a refund in flight holds, records how many of its units had been sent.
 * Rows already written count as never sent, as they were read until now.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  for (const table of ['order_refund_lines', 'refund_request_lines']) {
    await db.schema
      .alterTable(table)
      .addColumn('returned_after_dispatch', 'integer', (c) =>
        c
          .notNull()
          .defaultTo(0)
          .check(sql`returned_after_dispatch >= 0 and returned_after_dispatch <= quantity`),
      )
      .execute();
  }
}
