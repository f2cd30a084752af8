import { MemoryThrottlerStorage } from './memory-throttler.storage';

describe(MemoryThrottlerStorage.name, () => {
  it('should count hits in a fixed window and block past the limit until the block expires', async () => {
    let now = 0;
    const storage = new MemoryThrottlerStorage(() => now);
    for (let i = 1; i <= 10; i++) {
      expect(await storage.increment('ip:1', 60_000, 10, 60_000, 'auth')).toMatchObject({
        totalHits: i,
        isBlocked: false,
      });
    }
    const blocked = await storage.increment('ip:1', 60_000, 10, 60_000, 'auth');
    expect(blocked).toMatchObject({ totalHits: 11, isBlocked: true, timeToBlockExpire: 60 });
    now = 30_000;
    expect((await storage.increment('ip:1', 60_000, 10, 60_000, 'auth')).timeToBlockExpire).toBe(30);
    now = 60_001;
    expect(await storage.increment('ip:1', 60_000, 10, 60_000, 'auth')).toMatchObject({
      totalHits: 1,
      isBlocked: false,
    });
  });

  it('should keep separate counters per key and per throttler', async () => {
    const storage = new MemoryThrottlerStorage(() => 0);
    await storage.increment('a', 1000, 1, 1000, 'default');
    expect((await storage.increment('b', 1000, 1, 1000, 'default')).totalHits).toBe(1);
    expect((await storage.increment('a', 1000, 1, 1000, 'auth')).totalHits).toBe(1);
  });
});
