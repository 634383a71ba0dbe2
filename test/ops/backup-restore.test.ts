import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commitResponseSchema } from '../../src/contract/basket.ts';
import type { Product } from '../../src/contract/catalog.ts';
import { call } from '../helpers/api-client.ts';
import { checkoutFixtures, commitBody } from '../helpers/checkout-fixtures.ts';
import { runScript } from '../helpers/run-process.ts';
import { startShop, type ShopProcess } from '../helpers/shop-process.ts';
import { createEmptyDatabase, type TestDatabase } from '../helpers/test-db.ts';

/**
 * The documented backup and restore (docs/rules.md#operations), run once end to end. A backup is
 * taken while the shop serves; after more sales the shop is stopped, the backup restored, and the
 * shop started again shows exactly what it had at the backup.
 */
describe('backup and restore (npm run db:backup / db:restore)', () => {
  let database: TestDatabase;
  let shop: ShopProcess | undefined;
  let dir: string;

  beforeAll(async () => {
    database = await createEmptyDatabase();
    dir = mkdtempSync(join(tmpdir(), 'shop-backup-'));
  });
  afterAll(async () => {
    await shop?.stop();
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores the database to the moment of the backup', async () => {
    const env = { DATABASE_URL: database.processUrl };
    shop = await startShop(env);
    const fx = await checkoutFixtures(database.connect());
    const p = await fx.product(1800, 10);
    const buy = async () => {
      const answer = await call(shop!.url, '/api/basket', {
        body: commitBody([{ productStockId: p.stockId, requestedQty: 1 }]),
      });
      const result = commitResponseSchema.parse(answer.body);
      if (!result.ok) throw new Error('expected an order');
      return result.orderCode;
    };
    const before = await buy();

    const file = join(dir, 'shop.backup');
    const backup = await runScript('src/server/db/cli/backup.ts', env, [file]);
    expect(backup, backup.stderr).toMatchObject({ code: 0 });
    expect((await runScript('src/server/db/cli/backup.ts', env, [file])).code).toBe(1);

    const after = await buy();
    const stockNow = async () => (await call<Product>(shop!.url, `/api/products/${p.urlKey}`)).body.stocks[0]?.stock;
    expect(await stockNow()).toBe(8);

    await shop.stop();
    const restore = await runScript('src/server/db/cli/restore.ts', env, [file]);
    expect(restore, restore.stderr).toMatchObject({ code: 0 });
    shop = await startShop(env);

    expect((await call(shop.url, `/api/recover-basket/${before}`)).status).toBe(200);
    expect((await call(shop.url, `/api/recover-basket/${after}`)).status).toBe(404);
    expect(await stockNow()).toBe(9);
    // The restored shop takes orders again, numbered on from the backup.
    expect(await buy()).toMatch(/^[A-Za-z0-9_-]{22,}$/);
  });
});
