/** Spend of one time bucket (hour or UTC day), as the budget's rollups answer it. */
export interface SpendBucket {
  readonly bucket: Date;
  readonly costUsd: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly records: number;
}

/** Spend over a whole interval. */
export interface SpendTotals {
  readonly costUsd: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly records: number;
}

/**
 * Where analytics and reports read spend: the budget module's rollups, bound by the analytics
 * module. Intervals are half-open, [from, to); buckets come back ascending, empty ones left out.
 */
export abstract class SpendSource {
  abstract byHour(from: Date, to: Date): Promise<readonly SpendBucket[]>;
  abstract byDay(from: Date, to: Date): Promise<readonly SpendBucket[]>;
  abstract total(from: Date, to: Date): Promise<SpendTotals>;
}
