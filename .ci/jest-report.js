// Prints the closing line of `npm test` from jest --json reports (and Vitest's, which share the
// shape): tests passed and failed, and the test files that failed without a failing test (a file
// that did not compile, or a worker that died). A report that is missing counts as a failed run.
// Exits non-zero when anything failed.
const { existsSync, readFileSync } = require('node:fs');

let passed = 0;
let failed = 0;
let skipped = 0;
let brokenFiles = 0;
let success = true;
for (const path of process.argv.slice(2)) {
  if (!existsSync(path)) {
    console.log(`no test report at ${path}: that run did not finish`);
    brokenFiles += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(path, 'utf8'));
  success = success && report.success !== false;
  for (const suite of report.testResults) {
    let failedHere = 0;
    for (const test of suite.assertionResults) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') failedHere += 1;
      else skipped += 1;
    }
    failed += failedHere;
    if (suite.status === 'failed' && failedHere === 0) brokenFiles += 1;
  }
}
console.log(
  `tests: ${passed} passed, ${failed} failed` +
    (skipped ? `, ${skipped} skipped` : '') +
    (brokenFiles ? `, ${brokenFiles} test file(s) failed to run` : ''),
);
process.exitCode = failed > 0 || brokenFiles > 0 || !success ? 1 : 0;
