import { sql, type Kysely } from 'kysely';
import type { Db, Dialect } from './database.ts';
import * as m0001 from './migrations/0001-catalogue.ts';
import * as m0002 from './migrations/0002-orders.ts';
import * as m0003 from './migrations/0003-payments.ts';
import * as m0004 from './migrations/0004-accounts.ts';
import * as m0005 from './migrations/0005-rate-limits.ts';
import * as m0006 from './migrations/0006-order-number-sequence.ts';
import * as m0007 from './migrations/0007-mail-queue.ts';
import * as m0008 from './migrations/0008-unpaid-order-limits.ts';
import * as m0009 from './migrations/0009-settings.ts';
import * as m0010 from './migrations/0010-refunds.ts';
import * as m0011 from './migrations/0011-back-office.ts';
import * as m0012 from './migrations/0012-products-admin.ts';
import * as m0013 from './migrations/0013-product-photos.ts';
import * as m0014 from './migrations/0014-stock-vouchers-delivery.ts';
import * as m0015 from './migrations/0015-paypal-checkout.ts';
import * as m0016 from './migrations/0016-published-search-index.ts';
import * as m0017 from './migrations/0017-refund-request-restock.ts';
import * as m0018 from './migrations/0018-one-capture-per-order.ts';
import * as m0019 from './migrations/0019-staff-cancelled.ts';
import * as m0020 from './migrations/0020-search-changes.ts';
import * as m0021 from './migrations/0021-spec-titles.ts';
import * as m0022 from './migrations/0022-mail-reply-to.ts';
import * as m0023 from './migrations/0023-order-replaces.ts';
import * as m0024 from './migrations/0024-one-search-engine.ts';
import * as m0025 from './migrations/0025-order-replaced-by-index.ts';
import * as m0026 from './migrations/0026-documents.ts';
import * as m0027 from './migrations/0027-shop-notified.ts';
import * as m0028 from './migrations/0028-collection.ts';
import * as m0029 from './migrations/0029-customers-by-email.ts';
import * as m0030 from './migrations/0030-fulfilments.ts';
import * as m0031 from './migrations/0031-order-links.ts';
import * as m0032 from './migrations/0032-returns.ts';
import * as m0033 from './migrations/0033-restock-without-refund.ts';
import * as m0034 from './migrations/0034-returned-units.ts';
import * as m0035 from './migrations/0035-staff-recovery-codes.ts';
import * as m0036 from './migrations/0036-staff-roles.ts';
import * as m0037 from './migrations/0037-shipping-labels.ts';
import * as m0038 from './migrations/0038-label-references.ts';

interface Migration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Every migration, in order. A new one is appended here; landed ones are never edited. */
const migrations: ReadonlyArray<[name: string, migration: Migration]> = [
  ['0001-catalogue', m0001],
  ['0002-orders', m0002],
  ['0003-payments', m0003],
  ['0004-accounts', m0004],
  ['0005-rate-limits', m0005],
  ['0006-order-number-sequence', m0006],
  ['0007-mail-queue', m0007],
  ['0008-unpaid-order-limits', m0008],
  ['0009-settings', m0009],
  ['0010-refunds', m0010],
  ['0011-back-office', m0011],
  ['0012-products-admin', m0012],
  ['0013-product-photos', m0013],
  ['0014-stock-vouchers-delivery', m0014],
  ['0015-paypal-checkout', m0015],
  ['0016-published-search-index', m0016],
  ['0017-refund-request-restock', m0017],
  ['0018-one-capture-per-order', m0018],
  ['0019-staff-cancelled', m0019],
  ['0020-search-changes', m0020],
  ['0021-spec-titles', m0021],
  ['0022-mail-reply-to', m0022],
  ['0023-order-replaces', m0023],
  ['0024-one-search-engine', m0024],
  ['0025-order-replaced-by-index', m0025],
  ['0026-documents', m0026],
  ['0027-shop-notified', m0027],
  ['0028-collection', m0028],
  ['0029-customers-by-email', m0029],
  ['0030-fulfilments', m0030],
  ['0031-order-links', m0031],
  ['0032-returns', m0032],
  ['0033-restock-without-refund', m0033],
  ['0034-returned-units', m0034],
  ['0035-staff-recovery-codes', m0035],
  ['0036-staff-roles', m0036],
  ['0037-shipping-labels', m0037],
  ['0038-label-references', m0038],
];

/** Same key for every instance, so two starting at once queue behind one lock. */
const PG_MIGRATION_LOCK = 7_311_2024;

/**
 * Applies pending migrations in one transaction. Safe when several processes start together:
 * PostgreSQL queues them on an advisory lock; SQLite's BEGIN IMMEDIATE (see database.ts) lets one
 * writer in while the others wait on busy_timeout, then finds nothing left to do.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const applied: string[] = [];
  await db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === 'postgres') await sql`select pg_advisory_xact_lock(${PG_MIGRATION_LOCK})`.execute(trx);
    await trx.schema
      .createTable('schema_migrations')
      .ifNotExists()
      .addColumn('name', 'varchar(200)', (c) => c.primaryKey())
      .addColumn('applied_at', 'varchar(40)', (c) => c.notNull())
      .execute();
    const done = new Set(
      (await (trx as Kysely<any>).selectFrom('schema_migrations').select('name').execute()).map(
        (row: { name: string }) => row.name,
      ),
    );
    for (const [name, migration] of migrations) {
      if (done.has(name)) continue;
      await migration.up(trx as Kysely<any>, db.dialect);
      await (trx as Kysely<any>)
        .insertInto('schema_migrations')
        .values({ name, applied_at: new Date().toISOString() })
        .execute();
      applied.push(name);
    }
  });
  return applied;
}
