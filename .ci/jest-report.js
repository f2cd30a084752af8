// Reads jest --json reports. `crashed <report>` prints the test files whose worker process died
// (a signal, not a failing assertion); `summary <report> [rerun reports...]` prints the closing line,
// later reports replacing the results of the files they re-ran.
const { readFileSync } = require('node:fs');

const [mode, ...files] = process.argv.slice(2);
const reports = files.map((file) => JSON.parse(readFileSync(file, 'utf8')));

function isCrash(suite) {
  return suite.status === 'failed' && suite.assertionResults.length === 0 && /signal=SIG[A-Z]+/.test(suite.message);
}

if (mode === 'crashed') {
  const crashed = reports[0].testResults.filter(isCrash).map((suite) => suite.name);
  process.stdout.write(crashed.join('\n'));
} else {
  const bySuite = new Map();
  for (const report of reports) {
    for (const suite of report.testResults) {
      bySuite.set(suite.name, suite);
    }
  }
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let crashed = 0;
  for (const suite of bySuite.values()) {
    for (const test of suite.assertionResults) {
      if (test.status === 'passed') passed += 1;
      else if (test.status === 'failed') failed += 1;
      else skipped += 1;
    }
    if (isCrash(suite)) crashed += 1;
  }
  console.log(
    `tests: ${passed} passed, ${failed} failed` +
      (skipped ? `, ${skipped} skipped` : '') +
      (crashed ? `, ${crashed} test file(s) crashed` : ''),
  );
  process.exitCode = failed > 0 || crashed > 0 ? 1 : 0;
}
