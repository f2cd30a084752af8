import { ErrorCode, ValidationError } from '../errors';
import {
  cheapestOf,
  CheapestSelector,
  compareByCost,
  QuotaAwareSelector,
  totalCostPer1k,
  type RoutableModel,
} from './routing-selectors';

const model = (provider: string, id: string, input: number, output: number): RoutableModel => ({
  provider,
  id,
  alias: null,
  costPer1kInput: input,
  costPer1kOutput: output,
  maxContext: 8192,
  estimatedLatencyMs: null,
});

describe('totalCostPer1k', () => {
  it('should add input and output prices', () => {
    expect(totalCostPer1k(model('p', 'm', 0.25, 1.5))).toBe(1.75);
  });
});

describe('CheapestSelector', () => {
  const selector = new CheapestSelector();

  it.each<[string, RoutableModel[], [string, string]]>([
    ['the only candidate', [model('a', 'm', 1, 1)], ['a', 'm']],
    ['the lowest total price', [model('a', 'm', 1, 3), model('b', 'm', 2, 1)], ['b', 'm']],
    ['total, not input, price', [model('a', 'm', 0.1, 5), model('b', 'm', 1, 1)], ['b', 'm']],
    ['the first provider name on a price tie', [model('zeta', 'm', 1, 1), model('alpha', 'm', 1, 1)], ['alpha', 'm']],
    ['the first id on a price and provider tie', [model('a', 'm-2', 1, 1), model('a', 'm-1', 1, 1)], ['a', 'm-1']],
    // Code-unit order: upper case sorts before lower case, whatever the locale.
    ['code-unit order of provider names', [model('b', 'm', 1, 1), model('B', 'm', 1, 1)], ['B', 'm']],
  ])('should pick %s', (_label, candidates, [provider, id]) => {
    const picked = selector.select(candidates);
    expect([picked.provider, picked.id]).toEqual([provider, id]);
  });

  it('should not reorder the candidates it was given', () => {
    const candidates = [model('b', 'm', 2, 2), model('a', 'm', 1, 1)];
    selector.select(candidates);
    expect(candidates.map((m) => m.provider)).toEqual(['b', 'a']);
  });

  it('should refuse an empty candidate list', () => {
    expect(() => selector.select([])).toThrow(ValidationError);
    expect(() => cheapestOf([])).toThrow(expect.objectContaining({ code: ErrorCode.RoutingUnresolved }) as Error);
  });
});

describe('QuotaAwareSelector', () => {
  const candidates = [model('cheap', 'm', 1, 1), model('mid', 'm', 2, 2), model('dear', 'm', 3, 3)];

  it.each<[string, string[], string]>([
    ['the cheapest provider when all have quota', ['cheap', 'mid', 'dear'], 'cheap'],
    ['the cheapest provider with quota', ['mid', 'dear'], 'mid'],
    ['a dear provider when it alone has quota', ['dear'], 'dear'],
    ['the cheapest provider when none has quota', [], 'cheap'],
  ])('should pick %s', (_label, withQuota, expected) => {
    const selector = new QuotaAwareSelector((provider) => withQuota.includes(provider));
    expect(selector.select(candidates).provider).toBe(expected);
  });

  it('should break ties among providers with quota deterministically', () => {
    const tied = [model('b', 'm', 1, 1), model('a', 'm', 1, 1), model('c', 'm', 0.5, 0.5)];
    const selector = new QuotaAwareSelector((provider) => provider !== 'c');
    expect(selector.select(tied).provider).toBe('a');
  });

  it('should ask about each provider once', () => {
    const hasQuota = jest.fn(() => true);
    new QuotaAwareSelector(hasQuota).select([model('a', 'x', 1, 1), model('a', 'y', 1, 1), model('b', 'x', 1, 1)]);
    expect(hasQuota.mock.calls).toEqual([['a'], ['b']]);
  });

  it('should refuse an empty candidate list', () => {
    expect(() => new QuotaAwareSelector(() => true).select([])).toThrow(ValidationError);
  });
});

describe('compareByCost', () => {
  it('should order by price, then provider, then id', () => {
    const sorted = [model('b', 'x', 1, 1), model('a', 'y', 1, 1), model('a', 'x', 1, 1), model('z', 'z', 0, 0)].sort(
      compareByCost,
    );
    expect(sorted.map((m) => `${m.provider}/${m.id}`)).toEqual(['z/z', 'a/x', 'a/y', 'b/x']);
  });
});
