// ESLint (typescript-eslint, type-checked) with the house layering rules.
import path from 'node:path';

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Flat config replaces a rule's options wholesale when a later block matches the same file, so each
// layer block lists every restriction that applies to its files: the deep-import rule, its own
// groups, and the shared ones below.
const DEEP_IMPORTS = {
  group: ['**/libs/*/src/**', '@app/*/src/**'],
  message: 'Import libraries through @app/<lib> only.',
};
const NO_APPS = { group: ['**/apps/**'], message: 'Libraries never import applications.' };
const NO_TEST_HELPERS = { group: ['@app/testing'], message: 'Test helpers are not imported from production code.' };
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns: [DEEP_IMPORTS, ...patterns] }] });
const layer = (groups, message, ...shared) => restrict(...groups.map((group) => ({ group, message })), ...shared);

const API_SRC = path.join(import.meta.dirname, 'apps', 'api', 'src');
const MODULES = path.join(API_SRC, 'modules');

/** The feature module a path lies in, and the path inside it ('' for the module folder itself). */
function locateInModules(file) {
  const relative = path.relative(MODULES, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    return null;
  }
  const [name, ...inner] = relative.split(path.sep);
  return { name, inner: inner.join('/').replace(/\.[cm]?[jt]s$/, '') };
}

/**
 * Module boundaries in apps/api/src: code outside a feature module reaches it only through its
 * public face (`modules/<name>` or `modules/<name>/index`), never through one of its repositories;
 * a feature module imports no application folder outside `modules/` (shared rules live in libs).
 */
const moduleFaces = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      repository:
        "'{{source}}' is a repository of module '{{module}}': repositories stay inside their module; use its facades.",
      deep: "'{{source}}' reaches inside module '{{module}}': import its public face ('{{face}}') instead.",
      outside:
        "'{{source}}' leaves the module folders: a feature module imports other modules' faces and @app/* libraries only.",
    },
  },
  create(context) {
    const file = context.filename;
    if (!file.startsWith(API_SRC + path.sep)) {
      return {};
    }
    const home = locateInModules(file);
    const check = (sourceNode) => {
      const source = sourceNode?.value;
      if (typeof source !== 'string' || !source.startsWith('.')) {
        return;
      }
      const target = path.resolve(path.dirname(file), source);
      const place = locateInModules(target);
      if (!place || !place.inner) {
        if (home?.inner && !place && target.startsWith(API_SRC + path.sep)) {
          context.report({ node: sourceNode, messageId: 'outside', data: { source } });
        }
        return;
      }
      if (place.name === home?.name || place.inner === 'index') {
        return;
      }
      const face = path.relative(path.dirname(file), path.join(MODULES, place.name)).split(path.sep).join('/');
      const messageId = /\.repository$/.test(place.inner) ? 'repository' : 'deep';
      context.report({ node: sourceNode, messageId, data: { source, module: place.name, face } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
    };
  },
};

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
      'libs/client/src/schema.ts',
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
      ...restrict(),
    },
  },
  {
    files: ['apps/api/src/**/*.ts'],
    plugins: { boundaries: { rules: { 'module-faces': moduleFaces } } },
    rules: { 'boundaries/module-faces': 'error' },
  },
  {
    files: ['libs/**/*.ts'],
    rules: restrict(NO_APPS),
  },
  {
    // The helpers that boot the application live beside the tests (test/support), not here.
    files: ['libs/testing/**/*.ts'],
    rules: restrict(NO_APPS, { group: ['**/test/**'], message: 'libs/testing must not import the test tree.' }),
  },
  {
    files: ['libs/domain/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: layer(
      [['@nestjs/*'], ['typeorm'], ['class-validator'], ['class-transformer'], ['@app/persistence', '@app/platform']],
      'libs/domain is pure TypeScript: no framework, ORM or outer-layer imports.',
      NO_APPS,
      NO_TEST_HELPERS,
    ),
  },
  {
    files: ['libs/persistence/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: layer(
      [['@nestjs/*', '!@nestjs/typeorm'], ['@app/platform']],
      'libs/persistence may import only domain and typeorm.',
      NO_APPS,
      NO_TEST_HELPERS,
    ),
  },
  {
    files: ['libs/platform/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: restrict(NO_APPS, NO_TEST_HELPERS),
  },
  {
    files: ['apps/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: restrict(NO_TEST_HELPERS),
  },
  {
    // Spec fixtures (`*.fixtures.ts`) are test code too: the build leaves them out.
    files: [
      '**/*.spec.ts',
      '**/*.fixtures.ts',
      '**/*.int-spec.ts',
      '**/*.e2e-spec.ts',
      'libs/testing/**/*.ts',
      'test/**/*.ts',
    ],
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
