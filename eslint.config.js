import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = 'src/web/features';
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
  : [];

/** no-restricted-imports for a folder: these import paths are off limits, with the reason. */
function boundary(files, groups, message) {
  return { files, rules: { 'no-restricted-imports': ['error', { patterns: [{ group: groups, message }] }] } };
}

/**
 * Lint rules. Beyond the recommended sets, the import boundaries of DESIGN.md section 2:
 * contract imports neither side, server and web never import each other, and web features never
 * import each other (one rule per feature, as bulletproof-react does with restricted paths).
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
    ['**/server/**', '**/web/**'],
    'contract/ is imported by both sides and imports neither.',
  ),
  boundary(['src/server/**'], ['**/web/**'], 'The server never imports web code.'),
  boundary(['src/web/**'], ['**/server/**'], 'Web code talks to the server through the API and contract/ only.'),
  ...features.map((feature) =>
    boundary(
      [`${featuresDir}/${feature}/**`],
      features
        .filter((other) => other !== feature)
        .flatMap((other) => [`../${other}`, `../${other}/**`, `**/features/${other}/**`]),
      'Web features do not import each other; share through ui/ or lib/.',
    ),
  ),
);
