import {
  bucketIndex,
  completedPerBucket,
  type RunOutcome,
  successRatePerBucket,
  trendBuckets,
  zeroFilled,
} from './trends';

const at = (iso: string): Date => new Date(iso);
const NOW = at('2026-11-25T13:45:00Z');

describe('trendBuckets', () => {
  it('should cut 7d into 168 hourly buckets ending with the current hour', () => {
    const buckets = trendBuckets('7d', NOW);
    expect(buckets.size).toBe('hour');
    expect(buckets.starts).toHaveLength(168);
    expect(buckets.from).toEqual(at('2026-11-18T14:00:00Z'));
    expect(buckets.starts[167]).toEqual(at('2026-11-25T13:00:00Z'));
    expect(buckets.starts[1]).toEqual(at('2026-11-18T15:00:00Z'));
  });

  it('should cut 30d and 90d into daily buckets ending today at 00:00 UTC', () => {
    const month = trendBuckets('30d', NOW);
    expect(month.size).toBe('day');
    expect(month.starts).toHaveLength(30);
    expect(month.from).toEqual(at('2026-10-27T00:00:00Z'));
    expect(month.starts[29]).toEqual(at('2026-11-25T00:00:00Z'));
    const quarter = trendBuckets('90d', NOW);
    expect(quarter.starts).toHaveLength(90);
    expect(quarter.from).toEqual(at('2026-08-28T00:00:00Z'));
  });

  it('should put an instant on a boundary in the bucket it starts, and outside instants nowhere', () => {
    const buckets = trendBuckets('30d', NOW);
    expect(bucketIndex(buckets, at('2026-10-27T00:00:00Z'))).toBe(0);
    expect(bucketIndex(buckets, at('2026-10-26T23:59:59.999Z'))).toBe(-1);
    expect(bucketIndex(buckets, at('2026-10-27T23:59:59.999Z'))).toBe(0);
    expect(bucketIndex(buckets, at('2026-10-28T00:00:00Z'))).toBe(1);
    expect(bucketIndex(buckets, at('2026-11-26T00:00:00Z'))).toBe(-1);
  });
});

describe('zeroFilled', () => {
  it('should sum points per bucket and leave empty buckets at 0', () => {
    const buckets = trendBuckets('7d', NOW);
    const values = zeroFilled(buckets, [
      { bucket: at('2026-11-25T13:00:00Z'), value: 1.5 },
      { bucket: at('2026-11-25T13:10:00Z'), value: 0.25 },
      { bucket: at('2026-11-18T14:00:00Z'), value: 2 },
      { bucket: at('2026-11-18T13:59:59Z'), value: 99 },
    ]);
    expect(values).toHaveLength(168);
    expect(values[167]).toBe(1.75);
    expect(values[0]).toBe(2);
    expect(values.slice(1, 167).every((v) => v === 0)).toBe(true);
  });
});

describe('task trends', () => {
  const runs: RunOutcome[] = [
    { completedAt: at('2026-11-25T00:00:00Z'), success: true },
    { completedAt: at('2026-11-25T10:00:00Z'), success: false },
    { completedAt: at('2026-11-25T13:00:00Z'), success: true },
    { completedAt: at('2026-11-24T23:59:59Z'), success: false },
  ];

  it('should count successful runs per day', () => {
    const values = completedPerBucket(trendBuckets('30d', NOW), runs);
    expect(values[29]).toBe(2);
    expect(values[28]).toBe(0);
  });

  it('should answer the success share per bucket, 0 for a bucket without runs', () => {
    const values = successRatePerBucket(trendBuckets('30d', NOW), runs);
    expect(values[29]).toBe(0.6667);
    expect(values[28]).toBe(0);
    expect(values[0]).toBe(0);
  });
});
