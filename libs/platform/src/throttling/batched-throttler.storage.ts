import type { ThrottlerStorage } from '@nestjs/throttler';

/** Hits one replica adds to a shared counter in one flush. */
export interface CounterDelta {
  key: string;
  hits: number;
  /** Window length, used when the flush opens the counter's window. */
  ttlMs: number;
  /** A block this replica imposed (ms from now), shared with the others; 0 for none. */
  blockMs: number;
}

/** A shared counter as the store holds it after a flush: every replica's hits in the current window. */
export interface CounterState {
  key: string;
  hits: number;
  expiresInMs: number;
  /** Time left on a block any replica imposed; 0 or less for none. */
  blockedInMs: number;
}

/** The shared side of the batched counter: adds many deltas in one round trip. */
export interface SharedCounterStore {
  add(deltas: readonly CounterDelta[]): Promise<CounterState[]>;
}

export interface BatchedThrottlerOptions {
  /** Period of the background flush. */
  flushIntervalMs?: number;
  now?: () => number;
  /** Told once per run of failures: while the store is unreachable each replica counts alone. */
  onFlushError?: (error: unknown) => void;
}

interface Bucket {
  /** All replicas' hits in this window as of the last flush answer (this replica's included). */
  shared: number;
  /** Hits sent in the flush under way. */
  inFlight: number;
  /** Hits admitted since. */
  pending: number;
  windowEnds: number;
  blockedUntil: number;
  /** A block imposed here that the next flush shares (ms), 0 for none. */
  blockToShare: number;
  ttl: number;
}

type StorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

const DEFAULT_FLUSH_INTERVAL_MS = 100;
/** The smallest unconfirmed allowance: a page loading a few resources at once must not be refused. */
const MIN_ALLOWANCE = 20;
/** The allowance is this share of the limit (1%), so the overshoot stays a small fraction of it. */
const ALLOWANCE_SHARE = 100;
const SWEEP_INTERVAL_MS = 60_000;

/**
 * Hits a replica may admit on one counter before a flush answer confirms them (B): the worst case
 * over N replicas is limit + (N - 1) x B per window.
 */
export function unconfirmedAllowance(limit: number): number {
  return Math.max(MIN_ALLOWANCE, Math.ceil(limit / ALLOWANCE_SHARE));
}

/**
 * Fixed-window counters shared by replicas without a shared row per request. Each replica counts in
 * memory and decides at once against the total it last heard from the store plus its own
 * unconfirmed hits; every 100 ms (sooner once half the allowance is used) one statement adds the
 * deltas of all counters and answers the new totals. No request waits for the store.
 *
 * Bound: a replica admits at most B = unconfirmedAllowance(limit) hits that the store has not yet
 * confirmed (further ones get a one-second 429), so N replicas admit at most limit + (N - 1) x B
 * per window. While the store is unreachable, each replica counts alone (up to N x limit).
 */
export class BatchedThrottlerStorage implements ThrottlerStorage {
  private readonly buckets = new Map<string, Bucket>();
  private readonly now: () => number;
  private readonly flusher: NodeJS.Timeout;
  private readonly sweeper: NodeJS.Timeout;
  private flushing: Promise<void> | null = null;
  private failing = false;
  /** A counter used half its allowance while a flush ran: the next flush follows at once. */
  private busy = false;

  constructor(
    private readonly store: SharedCounterStore,
    private readonly options: BatchedThrottlerOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.flusher = setInterval(() => void this.flush(), options.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS);
    this.flusher.unref();
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  increment(key: string, ttl: number, limit: number, blockDuration: number, name: string): Promise<StorageRecord> {
    const now = this.now();
    const bucket = this.bucketFor(`${name}:${key}`, ttl, now);
    const seen = bucket.shared + bucket.inFlight + bucket.pending;
    const timeToExpire = Math.max(0, Math.ceil((bucket.windowEnds - now) / 1000));
    if (bucket.blockedUntil > now) {
      return Promise.resolve(blocked(seen, timeToExpire, bucket.blockedUntil - now));
    }
    if (seen >= limit) {
      bucket.blockedUntil = now + blockDuration;
      bucket.blockToShare = blockDuration;
      return Promise.resolve(blocked(seen + 1, timeToExpire, blockDuration));
    }
    const allowance = unconfirmedAllowance(limit);
    if (bucket.inFlight + bucket.pending >= allowance) {
      // The store has not confirmed this replica's last hits yet: a short refusal keeps the bound.
      return Promise.resolve(blocked(seen + 1, timeToExpire, 1000));
    }
    bucket.pending += 1;
    if (bucket.pending * 2 >= allowance) {
      // Half the allowance used: flush now (or right after the flush under way), not at the next tick.
      this.busy = true;
      void this.flush();
    }
    return Promise.resolve({ totalHits: seen + 1, timeToExpire, isBlocked: false, timeToBlockExpire: 0 });
  }

  /** Sends the deltas of every counter in one call; one flush at a time, the next follows if needed. */
  flush(): Promise<void> {
    this.flushing ??= this.flushWhileBusy().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  /** Stops the timers after a last flush (bounded by the caller's wait). */
  async close(): Promise<void> {
    clearInterval(this.flusher);
    clearInterval(this.sweeper);
    await this.flush();
    this.buckets.clear();
  }

  private async flushWhileBusy(): Promise<void> {
    do {
      this.busy = false;
      await this.flushOnce();
    } while (this.busy && !this.failing);
  }

  /** One statement for every counter with news. */
  private async flushOnce(): Promise<void> {
    const sent: Array<[string, Bucket]> = [];
    const deltas: CounterDelta[] = [];
    for (const [id, bucket] of this.buckets) {
      if (bucket.pending > 0 || bucket.blockToShare > 0) {
        bucket.inFlight = bucket.pending;
        bucket.pending = 0;
        deltas.push({ key: id, hits: bucket.inFlight, ttlMs: bucket.ttl, blockMs: bucket.blockToShare });
        bucket.blockToShare = 0;
        sent.push([id, bucket]);
      }
    }
    if (deltas.length === 0) {
      return;
    }
    try {
      const states = await this.store.add(deltas);
      this.failing = false;
      this.apply(states);
    } catch (error) {
      if (!this.failing) {
        this.options.onFlushError?.(error);
      }
      this.failing = true;
    } finally {
      // Hits a lost answer did not confirm still count here (the store may or may not have them).
      for (const [, bucket] of sent) {
        bucket.shared += bucket.inFlight;
        bucket.inFlight = 0;
      }
    }
  }

  private apply(states: readonly CounterState[]): void {
    const now = this.now();
    for (const state of states) {
      const bucket = this.buckets.get(state.key);
      if (!bucket) {
        continue;
      }
      bucket.shared = state.hits - bucket.inFlight;
      bucket.windowEnds = now + state.expiresInMs;
      if (state.blockedInMs > 0) {
        bucket.blockedUntil = Math.max(bucket.blockedUntil, now + state.blockedInMs);
      }
    }
  }

  private bucketFor(id: string, ttl: number, now: number): Bucket {
    let bucket = this.buckets.get(id);
    if (!bucket) {
      bucket = {
        shared: 0,
        inFlight: 0,
        pending: 0,
        windowEnds: now + ttl,
        blockedUntil: 0,
        blockToShare: 0,
        ttl,
      };
      this.buckets.set(id, bucket);
    } else if (bucket.windowEnds <= now) {
      // A new window: hits not yet confirmed stay, as they count in the store's new window too.
      bucket.shared = 0;
      bucket.windowEnds = now + ttl;
      bucket.ttl = ttl;
    }
    return bucket;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, bucket] of this.buckets) {
      const idle = bucket.pending === 0 && bucket.inFlight === 0 && bucket.blockToShare === 0;
      if (idle && bucket.windowEnds <= now && bucket.blockedUntil <= now) {
        this.buckets.delete(id);
      }
    }
  }
}

function blocked(totalHits: number, timeToExpire: number, blockMs: number): StorageRecord {
  return { totalHits, timeToExpire, isBlocked: true, timeToBlockExpire: Math.max(1, Math.ceil(blockMs / 1000)) };
}
