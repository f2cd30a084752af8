// ESLint (typescript-eslint, type-checked) with the house layering rules.
import path from 'node:path';

import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (patterns, message) => ({
  'no-restricted-imports': ['error', { patterns: patterns.map((group) => ({ group, message })) }],
});

const API_SRC = path.join(import.meta.dirname, 'apps', 'api', 'src');
const MODULES = path.join(API_SRC, 'modules');
/** Modules still reached through their module file: they have no public face (index.ts) yet. */
const MODULES_WITHOUT_FACE = new Set(['tasks']);

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
      if (MODULES_WITHOUT_FACE.has(place.name) && place.inner === `${place.name}.module`) {
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
    files: ['apps/api/src/**/*.ts'],
    plugins: { boundaries: { rules: { 'module-faces': moduleFaces } } },
    rules: { 'boundaries/module-faces': 'error' },
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
