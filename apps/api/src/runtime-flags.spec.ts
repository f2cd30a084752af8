import { semiSpaceFlagMissing } from './runtime-flags';

describe(semiSpaceFlagMissing.name, () => {
  it('should find the flag on the command line or in NODE_OPTIONS, in either spelling', () => {
    expect(semiSpaceFlagMissing(['--max-semi-space-size=16'], undefined)).toBe(false);
    expect(semiSpaceFlagMissing([], '--enable-source-maps --max_semi_space_size=32')).toBe(false);
  });

  it('should report it missing otherwise', () => {
    expect(semiSpaceFlagMissing([], undefined)).toBe(true);
    expect(semiSpaceFlagMissing(['--enable-source-maps'], '--max-old-space-size=4096')).toBe(true);
  });
});
