import { Injectable } from '@nestjs/common';

import {
  addDays,
  bucketWidthMs,
  completedPerBucket,
  FORECAST_HORIZON_DEFAULT,
  forecastLookbackStart,
  forecastSpend,
  roundTo,
  dayStart,
  successRatePerBucket,
  type TrendBuckets,
  trendBuckets,
  type AnalyticsTrendMetric,
  type AnalyticsTrendPeriod,
  zeroFilled,
} from '@app/domain';

import { RunLedger } from '../run-ledger';
import { BudgetStatus } from './budget-status';
import type {
  ForecastResponseDto,
  OverviewMetricsDto,
  TrendDataPointDto,
  TrendsResponseDto,
} from './dto/analytics.dto';
import { Workforce } from './workforce';

/** The analytics use cases: overview, trends and the spend forecast. Times are UTC. */
@Injectable()
export class AnalyticsService {
  constructor(
    private readonly budget: BudgetStatus,
    private readonly ledger: RunLedger,
    private readonly workforce: Workforce,
  ) {}

  async overview(now = new Date()): Promise<OverviewMetricsDto> {
    const spend = this.budget.spend();
    const weekFrom = addDays(dayStart(now), -6);
    const [tasksByStatus, staff, standing, allTime, week] = await Promise.all([
      this.workforce.tasksByStatus(),
      this.workforce.staff(),
      this.budget.standing(now),
      spend.total(new Date(0), now),
      spend.byDay(weekFrom, addDays(dayStart(now), 1)),
    ]);
    const days = Array.from({ length: 7 }, (_, i) => addDays(weekFrom, i));
    const weekBuckets: TrendBuckets = { size: 'day', starts: days, from: weekFrom };
    const weekly = zeroFilled(
      weekBuckets,
      week.map((row) => ({ bucket: row.bucket, value: row.costUsd })),
    );
    return {
      total_tasks: Object.values(tasksByStatus).reduce((sum, n) => sum + n, 0),
      tasks_by_status: tasksByStatus,
      total_agents: staff.employed,
      total_cost_usd: roundTo(allTime.costUsd, 6),
      budget_remaining_usd: standing.remaining,
      budget_used_percent: standing.usedPercent,
      cost_7d_trend: points(weekBuckets, weekly, 6),
      active_agents_count: staff.active,
      idle_agents_count: staff.employed - staff.active,
      currency: standing.currency,
    };
  }

  async trends(
    period: AnalyticsTrendPeriod = '7d',
    metric: AnalyticsTrendMetric = 'spend',
    now = new Date(),
  ): Promise<TrendsResponseDto> {
    const buckets = trendBuckets(period, now);
    const end = new Date((buckets.starts.at(-1) as Date).getTime() + bucketWidthMs(buckets.size));
    let values: number[];
    let places = 4;
    switch (metric) {
      case 'spend': {
        const spend = this.budget.spend();
        const rows = await (buckets.size === 'hour' ? spend.byHour(buckets.from, end) : spend.byDay(buckets.from, end));
        values = zeroFilled(
          buckets,
          rows.map((row) => ({ bucket: row.bucket, value: row.costUsd })),
        );
        places = 6;
        break;
      }
      case 'tasks_completed':
        values = completedPerBucket(buckets, await this.runs(buckets.from, end));
        break;
      case 'success_rate':
        values = successRatePerBucket(buckets, await this.runs(buckets.from, end));
        break;
      case 'active_agents': {
        // Which agents were busy in past buckets is not recorded: the current count, flat.
        const { active } = await this.workforce.staff();
        values = buckets.starts.map(() => active);
        break;
      }
    }
    return { period, metric, bucket_size: buckets.size, data_points: points(buckets, values, places) };
  }

  async forecast(horizonDays = FORECAST_HORIZON_DEFAULT, now = new Date()): Promise<ForecastResponseDto> {
    const spend = this.budget.spend();
    const from = forecastLookbackStart(now, horizonDays);
    const [daily, standing] = await Promise.all([
      spend.byDay(from, addDays(dayStart(now), 1)),
      this.budget.standing(now),
    ]);
    const forecast = forecastSpend({
      horizonDays,
      now,
      daily: daily.map((row) => ({ day: row.bucket, cost: row.costUsd, records: row.records })),
      monthlyBudget: standing.totalMonthly,
      remaining: standing.remaining,
    });
    return {
      horizon_days: forecast.horizonDays,
      projected_total_usd: forecast.projectedTotal,
      daily_projections: forecast.dailyProjections.map((p) => ({ day: p.day, projected_spend_usd: p.projectedSpend })),
      days_until_exhausted: forecast.daysUntilExhausted,
      confidence: forecast.confidence,
      avg_daily_spend_usd: forecast.avgDailySpend,
      currency: standing.currency,
    };
  }

  private async runs(from: Date, to: Date) {
    const rows = await this.ledger.outcomesBetween(from, to);
    return rows.map((row) => ({ completedAt: row.completedAt, success: row.isSuccess }));
  }
}

function points(buckets: TrendBuckets, values: readonly number[], places: number): TrendDataPointDto[] {
  return buckets.starts.map((start, i) => ({ timestamp: start.toISOString(), value: roundTo(values[i] ?? 0, places) }));
}
