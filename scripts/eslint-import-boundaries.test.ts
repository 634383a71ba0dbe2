import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/** The project's own lint configuration, on code that would sit at `filePath`. */
const eslint = new ESLint({ cwd: `${import.meta.dirname}/..` });

async function boundaryMessages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((m) => m.ruleId === 'local/import-boundaries').map((m) => m.message);
}

describe('import boundaries (the real eslint.config.js)', () => {
  it('reports a storefront feature importing the server, beside its own per-feature zone', async () => {
    // The bug this rule replaced: a feature's own no-restricted-imports hid "web never imports server".
    expect(await boundaryMessages('src/web/features/home/x.ts', "import '../../../server/config.ts';")).toEqual([
      "'../../../server/config.ts': Web code talks to the server through the API and contract/ only.",
    ]);
    expect(await boundaryMessages('src/web/features/home/x.ts', "import('../search/search-page.tsx');")).toEqual([
      "'../search/search-page.tsx': Web features do not import each other; share through ui/ or lib/.",
    ]);
  });

  it('keeps the server’s features out of db/', async () => {
    expect(await boundaryMessages('src/server/db/x.ts', "import '../orders/orders.service.ts';")).toHaveLength(1);
    expect(await boundaryMessages('src/server/db/cli/x.ts', "import '../../catalog/demo/seed-demo.ts';")).toHaveLength(
      1,
    );
    expect(await boundaryMessages('src/server/db/x.ts', "import './database.ts';")).toEqual([]);
  });

  it('keeps the back office out of the storefront, and the shop’s pages out of the back office', async () => {
    for (const [file, source] of [
      ['src/web/app/router.tsx', '../admin/main.tsx'],
      ['src/web/lib/basket/x.ts', '../../admin/app/router.tsx'],
      ['src/web/ui/price/x.tsx', '../../admin/features/orders/orders-page.tsx'],
    ] as const) {
      expect(await boundaryMessages(file, `import '${source}';`)).toEqual([
        `'${source}': The storefront never imports the back office: it is a bundle of its own.`,
      ]);
    }
    expect(
      await boundaryMessages('src/web/admin/features/orders/x.tsx', "import '../../../features/home/art.tsx';"),
    ).toHaveLength(1);
    expect(await boundaryMessages('src/web/admin/app/router.tsx', "import '../../app/router.tsx';")).toHaveLength(1);
    expect(
      await boundaryMessages('src/web/admin/features/orders/x.tsx', "import '../customers/api/customers.ts';"),
    ).toEqual([
      "'../customers/api/customers.ts': Back-office features do not import each other; share through admin/ui or admin/lib.",
    ]);
    expect(
      await boundaryMessages('src/web/admin/features/orders/x.tsx', "import '../../../../server/app.ts';"),
    ).toHaveLength(1);
  });

  it('lets the back office use ui/, lib/, contract/, the styles and its own features', async () => {
    const code = [
      "import '../../../lib/api.ts';",
      "import '../../../ui/price/price.tsx';",
      "import '../../../../contract/admin/orders.ts';",
      "import '../../../styles/global.css';",
      "import './api/orders.ts';",
    ].join('\n');
    expect(await boundaryMessages('src/web/admin/features/orders/x.tsx', code)).toEqual([]);
    expect(
      await boundaryMessages('src/web/admin/app/router.tsx', "import('../features/orders/orders-page.tsx');"),
    ).toEqual([]);
  });

  it('keeps payments out of the orders tables: it goes through the lifecycle and order-payments', async () => {
    for (const source of [
      '../orders/orders.repository.ts',
      '../orders/orders.admin-repository.ts',
      '../orders/order-refunds.repository.ts',
    ])
      expect(await boundaryMessages('src/server/payments/x.ts', `import type { X } from '${source}';`)).toEqual([
        `'${source}': Payments never reads or writes orders itself: it asks the order lifecycle (order-lifecycle.ts, order-payments.ts).`,
      ]);
    expect(
      await boundaryMessages(
        'src/server/payments/providers/paypal-standard/x.ts',
        "import '../../../orders/orders.repository.ts';",
      ),
    ).toHaveLength(1);
    const allowed = "import '../orders/order-lifecycle.ts';\nimport '../orders/order-payments.ts';";
    expect(await boundaryMessages('src/server/payments/x.ts', allowed)).toEqual([]);
  });

  it('keeps orders out of the payments tables: providers report to the lifecycle as events', async () => {
    expect(
      await boundaryMessages(
        'src/server/orders/x.ts',
        "import { eventSeen } from '../payments/payments.repository.ts';",
      ),
    ).toEqual([
      "'../payments/payments.repository.ts': Orders keep to their own tables: payments reports to the lifecycle as events (payment-provider.ts).",
    ]);
    expect(
      await boundaryMessages(
        'src/server/orders/x.ts',
        "import type { RefundingProvider } from '../payments/payment-provider.ts';",
      ),
    ).toEqual([]);
  });
});

describe('the database dialect stays below the repositories (the real eslint.config.js)', () => {
  async function syntaxMessages(filePath: string, code: string): Promise<string[]> {
    const [result] = await eslint.lintText(code, { filePath });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  }
  const passing = "export const lock = (db: { dialect: string }) => db.dialect === 'postgres';";

  it('reports a service, a route or a job that names the dialect', async () => {
    for (const file of [
      'src/server/catalog/stock.admin-service.ts',
      'src/server/basket/basket.routes.ts',
      'src/server/mail/mail-queue.ts',
      'src/server/orders/order-lifecycle.ts',
      'src/server/payments/payments.service.ts',
      'src/server/app.ts',
    ]) {
      expect(await syntaxMessages(file, passing), file).toHaveLength(2);
    }
    expect(
      await syntaxMessages('src/server/staff/x.ts', "import { dialectOfHandle } from '../db/database.ts';"),
    ).toContain(
      'Only db/ and the repositories know the database dialect: a repository asks dialectOfHandle(db) for it.',
    );
  });

  it('lets db/, the repositories and the tests ask for it, and still checks their money', async () => {
    for (const file of [
      'src/server/db/database.ts',
      'src/server/catalog/stock.admin-repository.ts',
      'src/server/mail/mail-queue.repository.ts',
      'src/server/staff/staff.routes.test.ts',
    ]) {
      expect(await syntaxMessages(file, passing), file).toEqual([]);
    }
    expect(
      await syntaxMessages('src/server/catalog/stock.admin-repository.ts', 'export const f = (p: number) => p / 100;'),
    ).toHaveLength(1);
    expect(
      await syntaxMessages('src/server/catalog/stock.admin-service.ts', 'export const f = (p: number) => p / 100;'),
    ).toHaveLength(1);
  });
});
