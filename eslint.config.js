import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const HOSTS = ['claude-code', 'http', 'mcp', 'openclaw'];

/**
 * Hosts only translate a protocol to the operations (src/core/ops): a host never imports another
 * host nor the CLI. What two hosts share lives in src/hosts/shared (serving HTTP) or in
 * src/commands (the commander adapter), which import no host.
 */
function hostBoundaries() {
  const cli = { regex: '(^|/)cli/', message: 'hosts never import the CLI: shared command code lives in src/commands' };
  const hostRules = HOSTS.map((host) => ({
    files: [`src/hosts/${host}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `(^|/)hosts/(${HOSTS.filter((h) => h !== host).join('|')})/|^\\.\\./(${HOSTS.filter((h) => h !== host).join('|')})/`,
              message: 'a host never imports another host: share through src/core/ops or src/hosts/shared',
            },
            cli,
          ],
        },
      ],
    },
  }));
  return [
    ...hostRules,
    {
      files: ['src/hosts/shared/**/*.ts', 'src/commands/**/*.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              { regex: `(^|/)hosts/(${HOSTS.join('|')})/|^\\.\\./(${HOSTS.join('|')})/`, message: 'shared host code imports no host' },
              cli,
            ],
          },
        ],
      },
    },
  ];
}

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
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                '**/backends/**',
                '**/cli/**',
                '**/commands/**',
                '**/hosts/**',
                '**/strata.js',
                '@lancedb/*',
                '@energetic-ai/*',
                '@modelcontextprotocol/*',
                'hono',
                'hono/*',
                'commander',
              ],
              message: 'core/spec must not import backends, hosts, the CLI or their libraries',
            },
          ],
        },
      ],
    },
  },
  ...hostBoundaries(),
  {
    files: ['bin/**/*.js', 'scripts/**/*.mjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly' } },
  },
);
