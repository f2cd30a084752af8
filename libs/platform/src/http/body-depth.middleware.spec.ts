import { exceedsDepth } from './body-depth.middleware';

function nestedArray(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) {
    value = [value];
  }
  return value;
}

describe(exceedsDepth.name, () => {
  it('should accept scalars and bodies at the limit', () => {
    expect(exceedsDepth('text', 0)).toBe(false);
    expect(exceedsDepth(nestedArray(64), 64)).toBe(false);
    expect(exceedsDepth({ a: { b: [1, { c: 2 }] } }, 4)).toBe(false);
  });

  it('should refuse a body one level past the limit', () => {
    expect(exceedsDepth(nestedArray(65), 64)).toBe(true);
    expect(exceedsDepth({ a: { b: [1, { c: 2 }] } }, 3)).toBe(true);
  });

  it('should stop early on a body nested thousands deep', () => {
    expect(exceedsDepth(nestedArray(50_000), 64)).toBe(true);
  });
});
