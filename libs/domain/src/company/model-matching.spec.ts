import { findCatalogModel, pickModelForTier, type CatalogModel } from './model-matching';

const model = (provider: string, id: string, cost: number, alias: string | null = null): CatalogModel => ({
  provider,
  id,
  alias,
  costPer1kInput: cost / 2,
  costPer1kOutput: cost / 2,
});

describe('pickModelForTier', () => {
  const catalogue = [model('b', 'large-1', 10), model('a', 'small-1', 0.1), model('a', 'mid-1', 1)];

  it('maps small, medium and large onto the price order', () => {
    expect(pickModelForTier(catalogue, 'small')?.id).toBe('small-1');
    expect(pickModelForTier(catalogue, 'medium')?.id).toBe('mid-1');
    expect(pickModelForTier(catalogue, 'large')?.id).toBe('large-1');
  });

  it('answers null for an empty catalogue and the only model for one entry', () => {
    expect(pickModelForTier([], 'large')).toBeNull();
    expect(pickModelForTier([model('a', 'only', 1)], 'small')?.id).toBe('only');
  });

  it('finds a model by id or alias within one provider', () => {
    const list = [model('a', 'm-1', 1, 'fast'), model('b', 'm-1', 1)];
    expect(findCatalogModel(list, 'a', 'fast')?.id).toBe('m-1');
    expect(findCatalogModel(list, 'b', 'fast')).toBeUndefined();
    expect(findCatalogModel(list, 'c', 'm-1')).toBeUndefined();
  });
});
