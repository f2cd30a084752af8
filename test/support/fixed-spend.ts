import { type DynamicModule, Global, Module } from '@nestjs/common';

import { type SpendBucket, SpendSource, type SpendTotals } from '../../apps/api/src/modules/analytics';

/** Hourly spend rows a test states by hand; days are their hours added up. */
export interface FixedSpendRow {
  readonly at: Date;
  readonly costUsd: number;
  readonly records: number;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

function bucketed(rows: readonly FixedSpendRow[], width: number, from: Date, to: Date): SpendBucket[] {
  const sums = new Map<number, SpendBucket>();
  for (const row of rows) {
    const time = row.at.getTime();
    if (time < from.getTime() || time >= to.getTime()) {
      continue;
    }
    const start = Math.floor(time / width) * width;
    const prior = sums.get(start);
    sums.set(start, {
      bucket: new Date(start),
      costUsd: (prior?.costUsd ?? 0) + row.costUsd,
      inputTokens: (prior?.inputTokens ?? 0) + row.records * 100,
      outputTokens: (prior?.outputTokens ?? 0) + row.records * 50,
      records: (prior?.records ?? 0) + row.records,
    });
  }
  return [...sums.values()].sort((a, b) => a.bucket.getTime() - b.bucket.getTime());
}

/**
 * A spend source answering from a short list of stated rows, for routes whose spend arithmetic a test
 * checks by hand; `total` answers the stated figure whatever the interval, so budget standings are fixed.
 */
class FixedSpend extends SpendSource {
  constructor(
    private readonly rows: readonly FixedSpendRow[],
    private readonly totals: SpendTotals,
  ) {
    super();
  }

  byHour(from: Date, to: Date): Promise<SpendBucket[]> {
    return Promise.resolve(bucketed(this.rows, HOUR_MS, from, to));
  }

  byDay(from: Date, to: Date): Promise<SpendBucket[]> {
    return Promise.resolve(bucketed(this.rows, DAY_MS, from, to));
  }

  total(): Promise<SpendTotals> {
    return Promise.resolve(this.totals);
  }
}

/** A global module binding the spend source to the stated rows (pass it in `extraImports`). */
export function fixedSpendModule(rows: readonly FixedSpendRow[], totalCostUsd: number): DynamicModule {
  @Global()
  @Module({})
  class FixedSpendModule {}
  const totals = { costUsd: totalCostUsd, inputTokens: 1000, outputTokens: 500, records: 10 };
  return {
    module: FixedSpendModule,
    providers: [{ provide: SpendSource, useValue: new FixedSpend(rows, totals) }],
    exports: [SpendSource],
  };
}
