import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the browser tests' server on `port` writes its mail, so the tests can read it. */
export function outboxFor(port: number): string {
  return join(tmpdir(), `shop-e2e-outbox-${port}`);
}

/** The database file of the browser tests' server on `port`, for tests that add catalogue rows. */
export function databaseFor(port: number): string {
  return join(tmpdir(), `shop-e2e-db-${port}`, 'shop.db');
}
