// Prints the closing line of `npm test` from a jest --json report: tests passed and failed, and the
// test files that failed without a failing test (a file that did not compile, or a worker that died).
// Exits non-zero when anything failed.
const { readFileSync } = require('node:fs');

const report = JSON.parse(readFileSync(process.argv[2], 'utf8'));
let passed = 0;
let failed = 0;
let skipped = 0;
let brokenFiles = 0;
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
console.log(
  `tests: ${passed} passed, ${failed} failed` +
    (skipped ? `, ${skipped} skipped` : '') +
    (brokenFiles ? `, ${brokenFiles} test file(s) failed to run` : ''),
);
process.exitCode = failed > 0 || brokenFiles > 0 || report.success === false ? 1 : 0;
