import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the browser tests' server on `port` writes its mail, so the tests can read it. */
export function outboxFor(port: number): string {
  return join(tmpdir(), `shop-e2e-outbox-${port}`);
}
