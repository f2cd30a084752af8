// The order in which jest hands test files to its workers. Jest's own order puts the files that
// failed last time first, then the longest ones by the timings it recorded in its cache, and, with
// no timings (a fresh CI machine), the largest files first. The longest files of the suite are
// short files that wait on child processes and timers, so by size they would start last and run
// alone at the end on one worker. The files listed here start first, whatever jest knows, so that the
// rest of the suite runs beside them on the other worker; the other files keep jest's order.
const { relative } = require('node:path');

const Sequencer = require('@jest/test-sequencer').default;

/**
 * Longest first, as measured alone on two idle cores: the console's operations pages (87 s) and the
 * short soak (65 s); the next longest files take about 30 s. They start in this order, before every
 * other file.
 */
const FIRST = ['test/browser/operations.e2e-spec.ts', 'test/e2e/soak-short.e2e-spec.ts'];

class LongestFirstSequencer extends Sequencer {
  sort(tests) {
    const rank = (test) => {
      const index = FIRST.indexOf(relative(test.context.config.rootDir, test.path).split('\\').join('/'));
      return index === -1 ? FIRST.length : index;
    };
    // Array.prototype.sort is stable: the files not listed keep jest's order.
    return super.sort(tests).sort((a, b) => rank(a) - rank(b));
  }
}

module.exports = LongestFirstSequencer;
