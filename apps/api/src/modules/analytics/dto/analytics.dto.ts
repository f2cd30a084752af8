import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, Max, Min } from 'class-validator';

import {
  ErrorCode,
  FORECAST_HORIZON_DEFAULT,
  FORECAST_HORIZON_MAX,
  FORECAST_HORIZON_MIN,
  TASK_STATUSES,
  ANALYTICS_TREND_METRICS,
  ANALYTICS_TREND_PERIODS,
  type TaskStatus,
  type AnalyticsTrendMetric,
  type AnalyticsTrendPeriod,
} from '@app/domain';
import { codedRule, QueryInteger } from '@app/platform';

/** One point of a time series. */
@ApiSchema({ name: 'TrendDataPoint' })
export class TrendDataPointDto {
  @ApiProperty({ format: 'date-time', description: 'Start of the bucket (UTC)' })
  timestamp!: string;

  @ApiProperty({ type: 'number' })
  value!: number;
}

const STATUS_COUNTS = Object.fromEntries(TASK_STATUSES.map((status) => [status, { type: 'integer' as const }]));

/** The organisation at a glance. */
@ApiSchema({ name: 'OverviewMetrics' })
export class OverviewMetricsDto {
  @ApiProperty({ type: 'integer' })
  total_tasks!: number;

  @ApiProperty({
    type: 'object',
    properties: STATUS_COUNTS,
    required: [...TASK_STATUSES],
    description: 'Every status, zero included',
  })
  tasks_by_status!: Record<TaskStatus, number>;

  @ApiProperty({ type: 'integer', description: 'Employed agents (all but terminated)' })
  total_agents!: number;

  @ApiProperty({ type: 'number', description: 'Everything spent, in the configured currency' })
  total_cost_usd!: number;

  @ApiProperty({ type: 'number', description: "What is left of the current billing period's budget (never negative)" })
  budget_remaining_usd!: number;

  @ApiProperty({
    type: 'number',
    description: 'Share of the monthly budget spent this period, in percent; may pass 100',
  })
  budget_used_percent!: number;

  @ApiProperty({ type: [TrendDataPointDto], description: 'Spend of the last 7 UTC days, today last' })
  cost_7d_trend!: TrendDataPointDto[];

  @ApiProperty({ type: 'integer', description: 'Employed agents with a task in progress' })
  active_agents_count!: number;

  @ApiProperty({ type: 'integer' })
  idle_agents_count!: number;

  @ApiProperty({ example: 'EUR' })
  currency!: string;
}

/** Query of `GET /analytics/trends`. */
export class TrendsQueryDto {
  @ApiPropertyOptional({ enum: ANALYTICS_TREND_PERIODS, default: '7d' })
  @IsOptional()
  @IsIn(ANALYTICS_TREND_PERIODS, codedRule(ErrorCode.TrendPeriodInvalid))
  period?: AnalyticsTrendPeriod;

  @ApiPropertyOptional({ enum: ANALYTICS_TREND_METRICS, default: 'spend' })
  @IsOptional()
  @IsIn(ANALYTICS_TREND_METRICS, codedRule(ErrorCode.TrendMetricInvalid))
  metric?: AnalyticsTrendMetric;
}

/** A metric over time in continuous, zero-filled buckets. */
@ApiSchema({ name: 'TrendsResponse' })
export class TrendsResponseDto {
  @ApiProperty({ enum: ANALYTICS_TREND_PERIODS })
  period!: AnalyticsTrendPeriod;

  @ApiProperty({ enum: ANALYTICS_TREND_METRICS })
  metric!: AnalyticsTrendMetric;

  @ApiProperty({ enum: ['hour', 'day'] })
  bucket_size!: 'hour' | 'day';

  @ApiProperty({ type: [TrendDataPointDto] })
  data_points!: TrendDataPointDto[];
}

/** Query of `GET /analytics/forecast`. */
export class ForecastQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: FORECAST_HORIZON_MIN,
    maximum: FORECAST_HORIZON_MAX,
    default: FORECAST_HORIZON_DEFAULT,
  })
  @IsOptional()
  @QueryInteger()
  @IsInt(codedRule(ErrorCode.ForecastHorizonOutOfRange))
  @Min(FORECAST_HORIZON_MIN, codedRule(ErrorCode.ForecastHorizonOutOfRange))
  @Max(FORECAST_HORIZON_MAX, codedRule(ErrorCode.ForecastHorizonOutOfRange))
  horizon_days?: number;
}

/** Projected cumulative spend by the end of one day. */
@ApiSchema({ name: 'ForecastPoint' })
export class ForecastPointDto {
  @ApiProperty({ format: 'date', example: '2026-11-26' })
  day!: string;

  @ApiProperty({ type: 'number' })
  projected_spend_usd!: number;
}

/** Spend projected from the average daily spend of the lookback (as many days as the horizon). */
@ApiSchema({ name: 'ForecastResponse' })
export class ForecastResponseDto {
  @ApiProperty({ type: 'integer', minimum: FORECAST_HORIZON_MIN, maximum: FORECAST_HORIZON_MAX })
  horizon_days!: number;

  @ApiProperty({ type: 'number' })
  projected_total_usd!: number;

  @ApiProperty({ type: [ForecastPointDto], description: 'From tomorrow, one per day of the horizon' })
  daily_projections!: ForecastPointDto[];

  @ApiProperty({
    type: 'integer',
    nullable: true,
    description: 'Days until the period budget is spent at the average rate; null without a budget or spend',
  })
  days_until_exhausted!: number | null;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 1, description: 'Share of the lookback span with spend' })
  confidence!: number;

  @ApiProperty({ type: 'number' })
  avg_daily_spend_usd!: number;

  @ApiProperty({ example: 'EUR' })
  currency!: string;
}
