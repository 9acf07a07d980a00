import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-artifacts/**', 'bench/results/**', 'src/hosts/http/ui/assets/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'off',
    },
  },
  {
    // The core knows no adapter and no host: wiring happens in src/strata.ts only.
    files: ['src/core/**/*.ts', 'src/spec/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [
        { group: ['**/backends/**', '**/cli/**', '**/hosts/**', '**/strata.js', '@lancedb/*', '@energetic-ai/*'], message: 'core/spec must not import backends, hosts or their libraries' },
      ] }],
    },
  },
  {
    files: ['bin/**/*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
