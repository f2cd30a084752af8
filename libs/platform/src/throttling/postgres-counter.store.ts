import type { DataSource } from 'typeorm';

import type { CounterDelta, CounterState, SharedCounterStore } from './batched-throttler.storage';

const UTC_NOW = "timezone('utc', now())";

/**
 * Adds a batch of deltas to `rate_limit_buckets` in one statement and answers every counter's new
 * total. A counter whose window has ended starts a new one with the delta; a block any replica
 * imposed is kept until it ends (the later of two wins). Keys go in sorted order, so two replicas
 * flushing overlapping batches lock the rows in the same order and never deadlock.
 */
const ADD_DELTAS = `
  INSERT INTO rate_limit_buckets AS b (key, hits, expires_at, blocked_until)
  SELECT d.key, d.hits,
         ${UTC_NOW} + make_interval(secs => d.ttl_ms / 1000),
         CASE WHEN d.block_ms > 0 THEN ${UTC_NOW} + make_interval(secs => d.block_ms / 1000) END
    FROM unnest($1::text[], $2::int[], $3::double precision[], $4::double precision[])
         AS d(key, hits, ttl_ms, block_ms)
   ORDER BY d.key
  ON CONFLICT (key) DO UPDATE SET
    hits = CASE WHEN b.expires_at <= ${UTC_NOW} THEN excluded.hits ELSE b.hits + excluded.hits END,
    expires_at = CASE WHEN b.expires_at <= ${UTC_NOW} THEN excluded.expires_at ELSE b.expires_at END,
    blocked_until = CASE
      WHEN excluded.blocked_until IS NOT NULL
           AND (b.blocked_until IS NULL OR b.blocked_until < excluded.blocked_until) THEN excluded.blocked_until
      WHEN b.blocked_until <= ${UTC_NOW} THEN NULL
      ELSE b.blocked_until END
  RETURNING key, hits,
    EXTRACT(EPOCH FROM (expires_at - ${UTC_NOW}))::double precision * 1000 AS expires_in_ms,
    COALESCE(EXTRACT(EPOCH FROM (blocked_until - ${UTC_NOW}))::double precision * 1000, 0) AS blocked_in_ms`;

/** The batched counters' shared store on Postgres: the `rate_limit_buckets` table. */
export class PostgresCounterStore implements SharedCounterStore {
  constructor(private readonly dataSource: () => DataSource) {}

  async add(deltas: readonly CounterDelta[]): Promise<CounterState[]> {
    const sorted = [...deltas].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const rows = await this.dataSource().query<
      Array<{ key: string; hits: number; expires_in_ms: number; blocked_in_ms: number }>
    >(ADD_DELTAS, [
      sorted.map((d) => d.key),
      sorted.map((d) => d.hits),
      sorted.map((d) => d.ttlMs),
      sorted.map((d) => d.blockMs),
    ]);
    return rows.map((row) => ({
      key: row.key,
      hits: Number(row.hits),
      expiresInMs: Math.max(0, Number(row.expires_in_ms)),
      blockedInMs: Number(row.blocked_in_ms),
    }));
  }
}
