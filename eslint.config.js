import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import { importBoundaries } from './scripts/eslint-import-boundaries.ts';

const serverDir = 'src/server';
/** The server's folders beside db/: the features and the cross-cutting HTTP code the database layer serves. */
const serverFolders = existsSync(serverDir)
  ? readdirSync(serverDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'db')
      .map((entry) => `${serverDir}/${entry.name}`)
  : [];

/**
 * The import boundaries of DESIGN.md sections 2 and 10, all in one rule so that every file gets
 * every zone that targets it: contract imports neither side, server and web never import each
 * other, the server's db/ imports none of the server's features, the storefront never imports the
 * back office (src/web/admin), which may use ui/, lib/ and contract/ but not the shop's pages,
 * features (the shop's, the back office's) never import each other, and payments never touches the
 * orders repositories (it goes through the order lifecycle). As bulletproof-react does with
 * import/no-restricted-paths.
 */
export const boundaryZones = [
  {
    target: ['src/contract'],
    from: ['src/server', 'src/web'],
    message: 'contract/ is imported by both sides and imports neither.',
  },
  { target: ['src/server'], from: ['src/web'], message: 'The server never imports web code.' },
  {
    target: ['src/server/db'],
    from: serverFolders,
    message:
      'db/ serves the features and imports none of them: a feature hands its data in (the demo catalogue: catalog/demo/).',
  },
  {
    // docs/decisions/0025-payment-adapters.md: payments moves orders through the lifecycle only.
    target: ['src/server/payments'],
    from: [
      'src/server/orders/orders.repository.ts',
      'src/server/orders/orders.admin-repository.ts',
      'src/server/orders/order-refunds.repository.ts',
    ],
    message:
      'Payments never reads or writes orders itself: it asks the order lifecycle (order-lifecycle.ts, order-payments.ts).',
  },
  {
    // The other way round: an order's refunds are the orders feature's own tables.
    target: ['src/server/orders'],
    from: ['src/server/payments/payments.repository.ts'],
    message: 'Orders keep to their own tables: payments reports to the lifecycle as events (payment-provider.ts).',
  },
  {
    target: ['src/web'],
    from: ['src/server'],
    message: 'Web code talks to the server through the API and contract/ only.',
  },
  {
    target: ['src/web'],
    except: ['src/web/admin'],
    from: ['src/web/admin'],
    message: 'The storefront never imports the back office: it is a bundle of its own.',
  },
  {
    target: ['src/web/admin'],
    from: ['src/web/app', 'src/web/features'],
    message: 'The back office may use ui/, lib/ and contract/, never the shop’s pages.',
  },
  { siblingsUnder: 'src/web/features', message: 'Web features do not import each other; share through ui/ or lib/.' },
  {
    siblingsUnder: 'src/web/admin/features',
    message: 'Back-office features do not import each other; share through admin/ui or admin/lib.',
  },
];

/** Where money would be divided or multiplied by 100, or rounded to pence, outside contract/money.ts. */
const moneySyntax = [
  ...["BinaryExpression[operator='/'][right.value=100]", "BinaryExpression[operator='*'][right.value=100]"].map(
    (selector) => ({
      selector,
      message:
        'Money is integer pence: use formatPence, penceToDecimal, poundsToPence or percentOf from contract/money.ts.',
    }),
  ),
  {
    selector: "CallExpression[callee.property.name='toFixed'][arguments.0.value=2]",
    message: 'Money is integer pence: use formatPence or penceToDecimal from contract/money.ts.',
  },
];

/** Any mention of the database's dialect. */
const dialectSyntax = [
  {
    selector: 'Identifier[name=/^(dialect|Dialect|dialectOf|dialectOfHandle)$/]',
    message: 'Only db/ and the repositories know the database dialect: a repository asks dialectOfHandle(db) for it.',
  },
];

/** Lint rules: the recommended sets, React's hook rules for web code, and the import boundaries. */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    plugins: { local: { rules: { 'import-boundaries': importBoundaries } } },
    rules: { 'local/import-boundaries': ['error', { root: import.meta.dirname, zones: boundaryZones }] },
  },
  {
    // Money is integer pence (docs/rules.md#prices-and-money): it becomes pounds, and pounds typed
    // become pence, only in contract/money.ts, so no screen rounds or formats it its own way. Tests
    // may work out what they expect independently.
    files: ['src/**/*.{ts,tsx}'],
    ignores: ['src/contract/money.ts', 'src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...moneySyntax] },
  },
  {
    // The two databases' differences stay in db/ and the repositories (docs/architecture.md, "two databases"):
    // a repository reads the dialect from the handle it is given, so no service, route or job
    // names it. (A flat config replaces a rule's options, so the money rules are repeated here.)
    files: ['src/server/**/*.ts'],
    ignores: ['src/server/db/**', 'src/server/**/*repository.ts', 'src/server/**/*.test.ts'],
    rules: { 'no-restricted-syntax': ['error', ...moneySyntax, ...dialectSyntax] },
  },
);
