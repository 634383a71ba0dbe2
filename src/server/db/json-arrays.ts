import { jsonArrayFrom as postgresJsonArrayFrom } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArrayFrom } from 'kysely/helpers/sqlite';
import type { Dialect } from './database.ts';

/**
 * Several queries' rows in one statement, each gathered as a JSON array: where every statement is
 * one more wait for the database, a read that needs several tables sends one
 * (docs/decisions/0018-checkout-in-fixed-round-trips.md).
 */
export function jsonArrayFromFor(dialect: Dialect) {
  return dialect === 'postgres' ? postgresJsonArrayFrom : sqliteJsonArrayFrom;
}

/** A gathered array's rows: PostgreSQL's driver parses JSON, SQLite answers it as text. */
export function jsonRows<T>(value: T[] | string): T[] {
  return typeof value === 'string' ? (JSON.parse(value) as T[]) : value;
}
