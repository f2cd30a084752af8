import type { ThrottlerStorage } from '@nestjs/throttler';

interface Bucket {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * Fixed-window counters in process memory (the embedded single-process mode). O(1) per check:
 * the library's default store keeps one timestamp per hit, which grows with the limit and costs
 * a scan per request at high per-user limits.
 */
export class MemoryThrottlerStorage implements ThrottlerStorage {
  private readonly buckets = new Map<string, Bucket>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly now: () => number = Date.now) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<{ totalHits: number; timeToExpire: number; isBlocked: boolean; timeToBlockExpire: number }> {
    const now = this.now();
    const id = `${name}:${key}`;
    let bucket = this.buckets.get(id);
    if (!bucket || (bucket.expiresAt <= now && bucket.blockedUntil <= now)) {
      bucket = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.buckets.set(id, bucket);
    }
    bucket.hits += 1;
    if (bucket.hits > limit && bucket.blockedUntil <= now) {
      bucket.blockedUntil = now + blockDuration;
    }
    const isBlocked = bucket.blockedUntil > now;
    return Promise.resolve({
      totalHits: bucket.hits,
      timeToExpire: Math.max(0, Math.ceil((bucket.expiresAt - now) / 1000)),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.max(1, Math.ceil((bucket.blockedUntil - now) / 1000)) : 0,
    });
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, bucket] of this.buckets) {
      if (bucket.expiresAt <= now && bucket.blockedUntil <= now) {
        this.buckets.delete(id);
      }
    }
  }
}
