import type { ThrottlerStorage } from '@nestjs/throttler';
import type { DataSource } from 'typeorm';

interface StorageRecord {
  totalHits: number;
  timeToExpire: number;
  isBlocked: boolean;
  timeToBlockExpire: number;
}

const UTC_NOW = "timezone('utc', now())";

/**
 * Fixed-window counters in a shared table so every replica counts against the same limit
 * (N replicas still allow 10 logins a minute, not 10×N). One UPSERT per check.
 */
export class PostgresThrottlerStorage implements ThrottlerStorage {
  constructor(private readonly dataSource: () => DataSource) {}

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): Promise<StorageRecord> {
    const ds = this.dataSource();
    const bucket = `${name}:${key}`;
    const rows = await ds.query<Array<{ hits: number; expires_in: number; blocked_in: number | null }>>(
      `INSERT INTO rate_limit_buckets (key, hits, expires_at, blocked_until)
       VALUES ($1, 1, ${UTC_NOW} + make_interval(secs => $2::double precision / 1000), NULL)
       ON CONFLICT (key) DO UPDATE SET
         hits = CASE WHEN rate_limit_buckets.expires_at <= ${UTC_NOW}
                      AND (rate_limit_buckets.blocked_until IS NULL OR rate_limit_buckets.blocked_until <= ${UTC_NOW})
                     THEN 1 ELSE rate_limit_buckets.hits + 1 END,
         expires_at = CASE WHEN rate_limit_buckets.expires_at <= ${UTC_NOW}
                           AND (rate_limit_buckets.blocked_until IS NULL OR rate_limit_buckets.blocked_until <= ${UTC_NOW})
                          THEN ${UTC_NOW} + make_interval(secs => $2::double precision / 1000)
                          ELSE rate_limit_buckets.expires_at END,
         blocked_until = CASE WHEN rate_limit_buckets.blocked_until <= ${UTC_NOW} THEN NULL
                              ELSE rate_limit_buckets.blocked_until END
       RETURNING hits,
         EXTRACT(EPOCH FROM (expires_at - ${UTC_NOW}))::double precision AS expires_in,
         EXTRACT(EPOCH FROM (blocked_until - ${UTC_NOW}))::double precision AS blocked_in`,
      [bucket, ttl],
    );
    const row = rows[0];
    if (!row) {
      throw new Error('rate limit upsert returned no row');
    }
    const timeToExpire = Math.max(0, Math.ceil(Number(row.expires_in)));
    let blockedIn = row.blocked_in === null ? 0 : Math.max(0, Number(row.blocked_in));
    if (row.hits > limit && blockedIn <= 0) {
      await ds.query(
        `UPDATE rate_limit_buckets SET blocked_until = ${UTC_NOW} + make_interval(secs => $2::double precision / 1000)
         WHERE key = $1`,
        [bucket, blockDuration],
      );
      blockedIn = blockDuration / 1000;
    }
    const isBlocked = row.hits > limit || blockedIn > 0;
    return {
      totalHits: row.hits,
      timeToExpire,
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.max(1, Math.ceil(blockedIn)) : 0,
    };
  }
}
