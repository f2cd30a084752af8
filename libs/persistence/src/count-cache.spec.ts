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
      const cache = new CountCache({ ttlMs: 1000 });
      cache.set('open', 7, cache.mark());

      jest.setSystemTime(1000);
      expect(cache.get('open')).toBe(7);
      jest.setSystemTime(1001);
      expect(cache.get('open')).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('should answer a total past its time limit as stale for one more limit, then not at all', () => {
    jest.useFakeTimers({ now: 0 });
    try {
      const cache = new CountCache({ ttlMs: 1000 });
      cache.set('open', 7, cache.mark());

      jest.setSystemTime(1500);
      expect(cache.lookup('open')).toEqual({ total: 7, stale: true, pending: undefined });
      expect(cache.get('open')).toBeUndefined();
      jest.setSystemTime(2001);
      expect(cache.lookup('open').total).toBeUndefined();
    } finally {
      jest.useRealTimers();
    }
  });

  it('should let concurrent lookups wait for one count in flight, and remember what it answers', async () => {
    const cache = new CountCache();
    let answer: (total: number) => void = () => undefined;
    const counting = new Promise<number>((resolve) => (answer = resolve));
    cache.track('open', cache.mark(), counting);

    expect(cache.refreshing('open')).toBe(true);
    const pending = cache.lookup('open').pending;
    expect(pending).toBe(counting);
    answer(12);
    await expect(pending).resolves.toBe(12);
    await Promise.resolve();

    expect(cache.refreshing('open')).toBe(false);
    expect(cache.lookup('open')).toEqual({ total: 12, stale: false, pending: undefined });
  });

  it('should not offer a count begun before a write, nor remember it', async () => {
    const cache = new CountCache();
    let answer: (total: number) => void = () => undefined;
    const counting = new Promise<number>((resolve) => (answer = resolve));
    cache.track('open', cache.mark(), counting);

    cache.invalidate();
    expect(cache.lookup('open').pending).toBeUndefined();
    answer(12);
    await counting;
    await Promise.resolve();

    expect(cache.lookup('open').total).toBeUndefined();
  });

  it('should forget a failed count without remembering anything', async () => {
    const cache = new CountCache();
    const failing = Promise.reject(new Error('connection lost'));
    cache.track('open', cache.mark(), failing);

    await expect(failing).rejects.toThrow('connection lost');
    await Promise.resolve();

    expect(cache.refreshing('open')).toBe(false);
    expect(cache.lookup('open').total).toBeUndefined();
  });

  it('should forget every place of a row on a write, and not learn one read across a write', () => {
    const cache = new CountCache();
    cache.rememberPosition('open', cache.mark(), 199, 'task-199');
    expect(cache.positionBefore('open', 1000)).toEqual({ offset: 199, key: 'task-199' });

    const mark = cache.mark();
    cache.invalidate();
    expect(cache.positionBefore('open', 1000)).toBeUndefined();
    cache.rememberPosition('open', mark, 399, 'task-399'); // read before the write
    expect(cache.positionBefore('open', 1000)).toBeUndefined();
  });

  describe('share', () => {
    function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void; reject: (error: Error) => void } {
      let resolve!: (value: T) => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    }

    it('should let identical reads in flight at once share one, and keep nothing once it settles', async () => {
      const cache = new CountCache();
      const first = deferred<string[]>();
      const read = jest.fn(() => first.promise);

      const a = cache.share('page-1', read);
      const b = cache.share('page-1', read);
      const other = cache.share('page-2', () => Promise.resolve(['other']));
      first.resolve(['row']);

      expect(await a).toBe(await b);
      expect(await other).toEqual(['other']);
      expect(read).toHaveBeenCalledTimes(1);
      await cache.share('page-1', read);
      expect(read).toHaveBeenCalledTimes(2); // settled: the next request reads again
    });

    it('should not let a read begun before a write serve a request made after it', async () => {
      const cache = new CountCache();
      const before = deferred<string>();
      const early = cache.share('page-1', () => before.promise);

      cache.invalidate(); // a write committed while the page was being read
      const late = cache.share('page-1', () => Promise.resolve('after the write'));
      before.resolve('before the write');

      expect(await early).toBe('before the write');
      expect(await late).toBe('after the write');
    });

    it('should keep a settled read for retainMs when its page is asked for again, but never across a write', async () => {
      const now = jest.spyOn(Date, 'now').mockReturnValue(1_000);
      try {
        const cache = new CountCache({ retainMs: 250 });
        const read = jest.fn(() => Promise.resolve(['row']));
        await cache.share('page-1', read); // asked for once: not kept
        now.mockReturnValue(1_100);
        const kept = await cache.share('page-1', read); // again within 250 ms: this read is kept
        expect(read).toHaveBeenCalledTimes(2);
        now.mockReturnValue(1_350);
        expect(await cache.share('page-1', read)).toBe(kept); // within 250 ms of the end of the read
        expect(read).toHaveBeenCalledTimes(2);
        now.mockReturnValue(1_351);
        expect(await cache.share('page-1', read)).not.toBe(kept); // too old: read again, and kept
        expect(read).toHaveBeenCalledTimes(3);
        cache.invalidate();
        await cache.share('page-1', read);
        expect(read).toHaveBeenCalledTimes(4); // a write: read again at once
      } finally {
        now.mockRestore();
      }
    });

    it('should keep a read that another request joined while it was in flight', async () => {
      const cache = new CountCache({ retainMs: 250 });
      const first = deferred<string[]>();
      const read = jest.fn(() => first.promise);
      const a = cache.share('page-1', read);
      const b = cache.share('page-1', read);
      first.resolve(['row']);
      expect(await a).toBe(await b);

      expect(await cache.share('page-1', read)).toBe(await a);
      expect(read).toHaveBeenCalledTimes(1);
    });

    it('should let go of a page read once, its rows with it', async () => {
      const cache = new CountCache({ retainMs: 60_000 });
      const reads = jest.fn((i: number) => Promise.resolve([i]));
      for (let i = 0; i < 5; i++) {
        await cache.share(`page-${i}`, () => reads(i));
      }
      const again = await cache.share('page-4', () => reads(4)); // read afresh, and kept from now on

      expect(reads).toHaveBeenCalledTimes(6);
      expect(await cache.share('page-4', () => reads(4))).toBe(again);
      expect(reads).toHaveBeenCalledTimes(6);
    });

    it('should keep no failed read, and a bounded number of settled ones', async () => {
      const cache = new CountCache({ retainMs: 60_000 });
      await expect(cache.share('bad', () => Promise.reject(new Error('lost')))).rejects.toThrow('lost');
      await expect(cache.share('bad', () => Promise.resolve('again'))).resolves.toBe('again');
      const reads = jest.fn((i: number) => Promise.resolve(i));
      for (let i = 0; i < 40; i++) {
        await cache.share(`page-${i}`, () => reads(i));
        await cache.share(`page-${i}`, () => reads(i)); // asked for again: kept
      }
      expect(reads).toHaveBeenCalledTimes(80);
      // The first pages made room for the later ones: asking again reads again.
      await cache.share('page-0', () => reads(0));
      expect(reads).toHaveBeenCalledTimes(81);
      await cache.share('page-39', () => reads(39));
      expect(reads).toHaveBeenCalledTimes(81);
    });

    it('should hand a failure to every caller that shared the read, then read afresh', async () => {
      const cache = new CountCache();
      const failing = deferred<string>();
      const a = cache.share('page-1', () => failing.promise);
      const b = cache.share('page-1', () => Promise.resolve('not asked'));
      failing.reject(new Error('connection lost'));

      await expect(a).rejects.toThrow('connection lost');
      await expect(b).rejects.toThrow('connection lost');
      await expect(cache.share('page-1', () => Promise.resolve('again'))).resolves.toBe('again');
    });
  });
});
