import {
  BatchedThrottlerStorage,
  type CounterDelta,
  type CounterState,
  type SharedCounterStore,
  unconfirmedAllowance,
} from './batched-throttler.storage';

const MINUTE = 60_000;
/** Timers are driven by hand: the background flush never fires within a test. */
const NO_TIMER = 3_600_000;

/** The shared store in memory: fixed windows per key, as the Postgres statement keeps them. */
class MemoryCounterStore implements SharedCounterStore {
  readonly calls: CounterDelta[][] = [];
  /** Each answer waits for this many event-loop turns (the round trip); the delta lands first. */
  latency: () => number = () => 0;
  failing = false;
  private readonly counters = new Map<string, { hits: number; expiresAt: number; blockedUntil: number }>();

  constructor(private readonly now: () => number) {}

  total(key: string): number {
    return this.counters.get(key)?.hits ?? 0;
  }

  async add(deltas: readonly CounterDelta[]): Promise<CounterState[]> {
    this.calls.push([...deltas]);
    if (this.failing) {
      throw new Error('store unreachable');
    }
    const now = this.now();
    const states = deltas.map((d) => {
      let counter = this.counters.get(d.key);
      if (!counter || counter.expiresAt <= now) {
        counter = { hits: 0, expiresAt: now + d.ttlMs, blockedUntil: counter?.blockedUntil ?? 0 };
        this.counters.set(d.key, counter);
      }
      counter.hits += d.hits;
      counter.blockedUntil = Math.max(counter.blockedUntil, d.blockMs > 0 ? now + d.blockMs : 0);
      return {
        key: d.key,
        hits: counter.hits,
        expiresInMs: counter.expiresAt - now,
        blockedInMs: counter.blockedUntil - now,
      };
    });
    for (let turns = this.latency(); turns > 0; turns--) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    return states;
  }
}

/** A small seeded generator, so a failing interleaving can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe(BatchedThrottlerStorage.name, () => {
  let now: number;
  let store: MemoryCounterStore;
  const storages: BatchedThrottlerStorage[] = [];
  const replica = (onFlushError?: (error: unknown) => void): BatchedThrottlerStorage => {
    const storage = new BatchedThrottlerStorage(store, { flushIntervalMs: NO_TIMER, now: () => now, onFlushError });
    storages.push(storage);
    return storage;
  };
  const hit = (storage: BatchedThrottlerStorage, limit: number, key = 'user:1') =>
    storage.increment(key, MINUTE, limit, MINUTE, 'default');

  beforeEach(() => {
    now = 1_000_000;
    store = new MemoryCounterStore(() => now);
  });

  afterEach(async () => {
    await Promise.all(storages.splice(0).map((s) => s.close()));
  });

  it('should answer from memory without waiting for the store', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const stuck: SharedCounterStore = { add: async (d) => (await gate, store.add(d)) };
    const storage = new BatchedThrottlerStorage(stuck, { flushIntervalMs: NO_TIMER, now: () => now });
    storages.push(storage);
    await hit(storage, 100_000);
    const flushing = storage.flush(); // waits for the gate; the hits below do not
    for (let i = 2; i <= 100; i++) {
      expect(await hit(storage, 100_000)).toMatchObject({ totalHits: i, isBlocked: false });
    }
    expect(store.calls).toHaveLength(0);
    release();
    await flushing;
    expect(store.calls).toHaveLength(1);
  });

  it('should send the hits of every counter in one batch per flush', async () => {
    const storage = replica();
    for (let i = 0; i < 5; i++) {
      await hit(storage, 1000, 'user:1');
      await hit(storage, 1000, 'user:2');
    }
    await storage.flush();
    expect(store.calls).toEqual([
      [
        { key: 'default:user:1', hits: 5, ttlMs: MINUTE, blockMs: 0 },
        { key: 'default:user:2', hits: 5, ttlMs: MINUTE, blockMs: 0 },
      ],
    ]);
    await storage.flush();
    expect(store.calls).toHaveLength(1); // nothing new, no statement
  });

  it('should flush early once half the allowance is used', async () => {
    const storage = replica();
    const allowance = unconfirmedAllowance(1000);
    for (let i = 0; i < allowance / 2; i++) {
      await hit(storage, 1000);
    }
    await storage.flush(); // the flush the last hit started
    expect(store.calls[0]?.[0]?.hits).toBe(allowance / 2);
  });

  it('should count the hits of other replicas once the store reports them', async () => {
    const a = replica();
    const b = replica();
    for (let i = 0; i < 8; i++) {
      await hit(a, 10);
    }
    await a.flush();
    await hit(b, 10);
    await b.flush();
    expect(await hit(b, 10)).toMatchObject({ totalHits: 10, isBlocked: false });
    const refused = await hit(b, 10);
    expect(refused).toMatchObject({ isBlocked: true, timeToBlockExpire: 60 });
    // The block travels with the next flush: replica A refuses too, though it knows of 8 + 1 hits only.
    await b.flush();
    await a.flush();
    await hit(a, 10);
    await a.flush();
    expect(await hit(a, 10)).toMatchObject({ isBlocked: true });
  });

  it('should refuse briefly, not overshoot, when the store is slow to confirm a burst', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const slow: SharedCounterStore = { add: async (d) => (await gate, store.add(d)) };
    const storage = new BatchedThrottlerStorage(slow, { flushIntervalMs: NO_TIMER, now: () => now });
    storages.push(storage);
    const allowance = unconfirmedAllowance(1000);
    for (let i = 0; i < allowance; i++) {
      expect((await hit(storage, 1000)).isBlocked).toBe(false);
    }
    expect(await hit(storage, 1000)).toMatchObject({ isBlocked: true, timeToBlockExpire: 1 });
    release();
    await storage.flush();
    expect((await hit(storage, 1000)).isBlocked).toBe(false);
  });

  it('should start a new window when the old one ends', async () => {
    const storage = replica();
    for (let i = 0; i < 3; i++) {
      await hit(storage, 3);
    }
    await storage.flush();
    expect((await storage.increment('user:1', MINUTE, 3, 0, 'default')).isBlocked).toBe(true);
    now += MINUTE + 1;
    expect(await hit(storage, 3)).toMatchObject({ totalHits: 1, isBlocked: false });
    await storage.flush();
    expect(store.total('default:user:1')).toBe(1);
  });

  it('should count alone while the store is unreachable, and say so once', async () => {
    const failures: unknown[] = [];
    const storage = replica((error) => failures.push(error));
    store.failing = true;
    for (let i = 0; i < 3; i++) {
      await hit(storage, 5);
      await storage.flush();
    }
    expect(failures).toHaveLength(1);
    await hit(storage, 5);
    await hit(storage, 5);
    expect((await hit(storage, 5)).isBlocked).toBe(true);
  });

  it.each(Array.from({ length: 40 }, (_, i) => i + 1))(
    'should admit at most limit + (N - 1) x B across 4 replicas in any interleaving (seed %i)',
    async (seed) => {
      const next = random(seed);
      store.latency = () => Math.floor(next() * 12);
      const replicas = [replica(), replica(), replica(), replica()];
      const limit = 100;
      const bound = limit + (replicas.length - 1) * unconfirmedAllowance(limit);
      let admitted = 0;
      const flushes: Array<Promise<void>> = [];
      for (let step = 0; step < 3000; step++) {
        const storage = replicas[Math.floor(next() * replicas.length)];
        const roll = next();
        if (roll < 0.7) {
          admitted += (await hit(storage, limit)).isBlocked ? 0 : 1;
        } else if (roll < 0.85) {
          flushes.push(storage.flush());
        } else {
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      await Promise.all([...flushes, ...replicas.map((r) => r.flush())]);
      expect(admitted).toBeGreaterThanOrEqual(limit);
      expect(admitted).toBeLessThanOrEqual(bound);
      expect(store.total('default:user:1')).toBe(admitted);
    },
  );
});
