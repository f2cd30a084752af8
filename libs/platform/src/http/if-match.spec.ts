import { ifMatchGiven, ifMatchSatisfied } from './if-match.decorator';

describe(ifMatchSatisfied.name, () => {
  const current = '"agent-01234567-v2"';

  it('should let a write through without a header, with an empty one or with *', () => {
    expect(ifMatchSatisfied(undefined, current)).toBe(true);
    expect(ifMatchSatisfied('  ', current)).toBe(true);
    expect(ifMatchSatisfied('*', current)).toBe(true);
  });

  it('should need the current tag among those listed, weak tags by their value', () => {
    expect(ifMatchSatisfied(current, current)).toBe(true);
    expect(ifMatchSatisfied(`"old", ${current}`, current)).toBe(true);
    expect(ifMatchSatisfied(`W/${current}`, current)).toBe(true);
    expect(ifMatchSatisfied('"agent-01234567-v1"', current)).toBe(false);
    expect(ifMatchSatisfied('agent-01234567-v2', current)).toBe(false);
  });

  it('should tell a header that compares from one that does not', () => {
    expect(ifMatchGiven(undefined)).toBe(false);
    expect(ifMatchGiven('')).toBe(false);
    expect(ifMatchGiven('*')).toBe(false);
    expect(ifMatchGiven(current)).toBe(true);
  });
});
