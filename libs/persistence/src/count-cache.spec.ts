import { CountCache } from './count-cache';

describe('CountCache', () => {
  it('should remember a total until a write invalidates it', () => {
    const cache = new CountCache();
    cache.set('open', 7, cache.mark());

    expect(cache.get('open')).toBe(7);
    cache.invalidate();
    expect(cache.get('open')).toBeUndefined();
  });

  it('should not remember a total read across a write', () => {
    const cache = new CountCache();
    const mark = cache.mark();
    cache.invalidate(); // a write committed while the count was being read

    cache.set('open', 7, mark);

    expect(cache.get('open')).toBeUndefined();
  });

  it('should forget a total after its time limit', () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const cache = new CountCache(1000);
      cache.set('open', 7, cache.mark());

      jest.setSystemTime(1000);
      expect(cache.get('open')).toBe(7);
      jest.setSystemTime(1001);
      expect(cache.get('open')).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });
});
