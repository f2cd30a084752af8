import { Injectable } from '@nestjs/common';

import { dayStart, hourStart } from '@app/domain';

import { CostRollupsRepository, type RollupQuery } from './cost-rollups.repository';

/** What to count: one agent's spend, or everybody's. */
export interface SpendFilter {
  agentId?: string;
}

/** Spend of one hour or day; only buckets with records exist (no zero filling). */
export interface SpendBucket {
  /** Start of the hour or the UTC day. */
  bucket: Date;
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  records: number;
}

/** Spend over a window. */
export interface SpendTotal {
  costUsd: number;
  inputTokens: number;
  outputTokens: number;
  records: number;
}

/**
 * Spend over time, read from the rollup rows (never from the raw records). A window covers the
 * buckets that start at or after `from` rounded down to the bucket, and before `to`: hours for
 * `byHour` and `total`, UTC days for `byDay`. Buckets come sorted ascending, without empty ones.
 */
@Injectable()
export class SpendHistory {
  constructor(private readonly rollups: CostRollupsRepository) {}

  byHour(from: Date, to: Date, filter: SpendFilter = {}): Promise<SpendBucket[]> {
    return this.rollups.buckets(query('hour', hourStart(from), to, filter));
  }

  byDay(from: Date, to: Date, filter: SpendFilter = {}): Promise<SpendBucket[]> {
    return this.rollups.buckets(query('day', dayStart(from), to, filter));
  }

  total(from: Date, to: Date, filter: SpendFilter = {}): Promise<SpendTotal> {
    return this.rollups.totals(query('hour', hourStart(from), to, filter));
  }
}

function query(grain: 'hour' | 'day', from: Date, to: Date, filter: SpendFilter): RollupQuery {
  return { grain, from, to, ...(filter.agentId !== undefined ? { agentId: filter.agentId } : {}) };
}
