import { existsSync, readdirSync } from 'node:fs';
import js from '@eslint/js';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const featuresDir = './src/web/features';
const features = existsSync(featuresDir)
  ? readdirSync(featuresDir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

/**
 * Lint rules. Beyond the recommended sets, the import boundaries of DESIGN.md section 2:
 * contract imports neither side, server and web never import each other, and web features
 * never import each other (bulletproof-react's import/no-restricted-paths, here import-x).
 */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    plugins: { 'import-x': importX },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './src/contract',
              from: ['./src/server', './src/web'],
              message: 'contract/ is imported by both sides and imports neither.',
            },
            { target: './src/server', from: './src/web', message: 'The server never imports web code.' },
            {
              target: './src/web',
              from: './src/server',
              message: 'Web code talks to the server through the API and contract/ only.',
            },
            ...features.map((feature) => ({
              target: `${featuresDir}/${feature}`,
              from: featuresDir,
              except: [`./${feature}`],
              message: 'Web features do not import each other; share through ui/ or lib/.',
            })),
          ],
        },
      ],
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
    },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
