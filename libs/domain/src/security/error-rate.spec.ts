import { judgeErrorRate } from './error-rate';

const runs = (ok: number, failed: number) => ({ runs: ok + failed, failures: failed });

describe('high error rate', () => {
  it.each<[string, { runs: number; failures: number }, number | null, boolean]>([
    ['no runs', runs(0, 0), null, false],
    ['four failures (below the sample)', runs(0, 4), null, false],
    ['five clean runs', runs(5, 0), 0, false],
    ['one failure in five (20 %)', runs(4, 1), 0.2, true],
    ['three failures in twenty (15 %, not above)', runs(17, 3), 0.15, false],
    ['four failures in twenty (20 %)', runs(16, 4), 0.2, true],
    ['one failure in ten (10 %)', runs(9, 1), 0.1, false],
  ])('should judge %s', (_label, outcomes, rate, high) => {
    const verdict = judgeErrorRate(outcomes);
    expect(verdict.rate).toBe(rate);
    expect(verdict.high).toBe(high);
    expect(verdict.runs).toBe(outcomes.runs);
    expect(verdict.failures).toBe(outcomes.failures);
  });

  it('should follow a configured threshold and sample', () => {
    expect(judgeErrorRate(runs(1, 1), 0.5, 2)).toMatchObject({ rate: 0.5, high: false });
    expect(judgeErrorRate(runs(1, 2), 0.5, 2)).toMatchObject({ high: true });
  });
});
