// Three tiers (see docs/testing.md): unit specs beside the code, integration and e2e under test/.
// Nest 12 is ESM-only; the CommonJS-compiled specs load it through require(esm), which jest supports
// when node runs with --experimental-vm-modules (set by .ci/test.sh and the npm scripts).
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];
const common = {
  rootDir: __dirname,
  testEnvironment: 'node',
  transform: { '^.+\\.ts$': swc },
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^@app/(client|domain|persistence|platform|testing)$': '<rootDir>/libs/$1/src/index.ts' },
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/.tools/'],
};
module.exports = {
  // Real databases, servers and a browser on a two-core machine: a hook that starts an app, or a flow
  // that clicks through pages, may take many seconds (Jest 30 applies this global value, not a
  // project's own).
  testTimeout: 30_000,
  // better-sqlite3's native Database objects must not be garbage-collected after the test file that
  // made them has been torn down (a native assertion aborts the process), so every test file gets a
  // fresh worker process: recycling after each file also keeps the suite's memory flat.
  workerIdleMemoryLimit: '1KB',
  // The longest files start first, so that the others run beside them (.ci/jest-sequencer.js).
  testSequencer: '<rootDir>/.ci/jest-sequencer.js',
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/apps/**/*.spec.ts', '<rootDir>/libs/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/test/integration/**/*.int-spec.ts'],
    },
    // The Kubernetes manifests in deploy/, rendered with kubectl and validated.
    { ...common, displayName: 'deploy', testMatch: ['<rootDir>/test/deploy/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.e2e-spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts', '<rootDir>/test/attack/**/*.e2e-spec.ts'],
    },
  ],
};
