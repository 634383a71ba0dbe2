import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = 'src/web/features';
const serverDir = 'src/server';
/** The server's folders beside db/: the features and the cross-cutting HTTP code the database layer serves. */
const serverFolders = existsSync(serverDir)
  ? readdirSync(serverDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'db')
      .map((entry) => entry.name)
  : [];
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

/**
 * no-restricted-imports for a folder: each [groups, message] pair puts those import paths off
 * limits, with its reason. A file gets the options of the last config that names the rule, so a
 * narrower folder repeats its wider folder's pairs rather than losing them.
 */
function boundary(files, ...rules) {
  const patterns = rules.map(([group, message]) => ({ group, message }));
  return { files, rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

const serverImportsNoWeb = [['**/web/**'], 'The server never imports web code.'];
const webImportsNoServer = [['**/server/**'], 'Web code talks to the server through the API and contract/ only.'];

/**
 * Lint rules. Beyond the recommended sets, the import boundaries of DESIGN.md section 2:
 * contract imports neither side, server and web never import each other, the server's db/ imports
 * none of the server's features, and web features never import each other (one rule per feature,
 * as bulletproof-react does with restricted paths).
 */
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
  boundary(
    ['src/contract/**'],
    [['**/server/**', '**/web/**'], 'contract/ is imported by both sides and imports neither.'],
  ),
  boundary(['src/server/**'], serverImportsNoWeb),
  boundary(['src/web/**'], webImportsNoServer),
  boundary(['src/server/db/**'], serverImportsNoWeb, [
    serverFolders.flatMap((folder) => [
      `../${folder}`,
      `../${folder}/**`,
      `../../${folder}/**`,
      `**/server/${folder}/**`,
    ]),
    'db/ serves the features and imports none of them: a feature hands its data in (the demo catalogue: catalog/demo/).',
  ]),
  ...features.map((feature) =>
    boundary([`${featuresDir}/${feature}/**`], webImportsNoServer, [
      features
        .filter((other) => other !== feature)
        .flatMap((other) => [`../${other}`, `../${other}/**`, `**/features/${other}/**`]),
      'Web features do not import each other; share through ui/ or lib/.',
    ]),
  ),
);
