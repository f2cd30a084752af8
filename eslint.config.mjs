// ESLint (typescript-eslint, type-checked) with the house layering rules.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group, message })) }],
});

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tools/**',
      'coverage/**',
      'data/**',
      'logs/**',
      'jest.config.js',
      'eslint.config.mjs',
      '.ci/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    // The decorator options tell consistent-type-imports that classes used in Nest constructor
    // parameters are runtime references (DI metadata), not type-only imports.
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
        emitDecoratorMetadata: true,
        experimentalDecorators: true,
      },
    },
    rules: {
      curly: 'error',
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      'max-lines': ['error', { max: 600, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/require-await': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/libs/*/src/**', '@app/*/src/**'], message: 'Import libraries through @app/<lib> only.' },
          ],
        },
      ],
    },
  },
  {
    files: ['libs/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: layer(
      [
        ['@nestjs/*'],
        ['typeorm'],
        ['class-validator'],
        ['class-transformer'],
        ['@app/persistence', '@app/platform', '@app/testing'],
      ],
      'libs/domain is pure TypeScript: no framework, ORM or outer-layer imports.',
    ),
  },
  {
    files: ['libs/persistence/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: layer(
      [['@nestjs/*'], ['@app/platform', '@app/testing'], ['**/apps/**']],
      'libs/persistence may import only domain and typeorm.',
    ),
  },
  {
    files: ['libs/platform/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: layer([['**/apps/**'], ['@app/testing']], 'libs/platform must not import apps or testing helpers.'),
  },
  {
    files: ['apps/**/*.ts', 'libs/domain/**/*.ts', 'libs/persistence/**/*.ts', 'libs/platform/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: layer([['@app/testing']], 'Test helpers are not imported from production code.'),
  },
  {
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'libs/testing/**/*.ts', 'test/**/*.ts'],
    rules: {
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      'max-lines': 'off',
    },
  },
);
