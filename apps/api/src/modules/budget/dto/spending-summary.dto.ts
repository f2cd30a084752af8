import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { BUDGET_ALERT_LEVELS } from '@app/domain';

@ApiSchema({ name: 'SpendingTotals' })
export class SpendingTotalsDto {
  @ApiProperty()
  total_cost_usd!: number;

  @ApiProperty()
  total_input_tokens!: number;

  @ApiProperty()
  total_output_tokens!: number;

  @ApiProperty()
  record_count!: number;
}

@ApiSchema({ name: 'SpendingPeriod' })
export class SpendingPeriodDto {
  @ApiProperty({ format: 'date-time' })
  start!: string;

  @ApiProperty({ format: 'date-time' })
  end!: string;

  @ApiProperty({ type: SpendingTotalsDto })
  totals!: SpendingTotalsDto;
}

@ApiSchema({ name: 'AgentSpendingSummary' })
export class AgentSpendingSummaryDto {
  @ApiProperty()
  agent_id!: string;

  @ApiProperty({ type: String, nullable: true })
  agent_name!: string | null;

  @ApiProperty()
  total_cost_usd!: number;

  @ApiProperty()
  record_count!: number;
}

@ApiSchema({ name: 'DepartmentSpendingSummary' })
export class DepartmentSpendingSummaryDto {
  @ApiProperty()
  department!: string;

  @ApiProperty()
  total_cost_usd!: number;

  @ApiProperty()
  record_count!: number;
}

@ApiSchema({ name: 'SpendingForecast' })
export class SpendingForecastDto {
  @ApiProperty({ description: 'Average spend per day of the period so far' })
  avg_daily_spend_usd!: number;

  @ApiProperty({ description: 'Spend at the end of the period at that rate' })
  projected_period_total_usd!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'Days until the monthly budget runs out' })
  days_until_exhausted!: number | null;
}

/** `GET /budget`: spending, limits and projections (the reference's SpendingSummary). */
@ApiSchema({ name: 'SpendingSummary' })
export class SpendingSummaryDto {
  @ApiProperty({ type: SpendingPeriodDto })
  period!: SpendingPeriodDto;

  @ApiProperty({ type: [AgentSpendingSummaryDto] })
  by_agent!: AgentSpendingSummaryDto[];

  @ApiProperty({ type: [DepartmentSpendingSummaryDto] })
  by_department!: DepartmentSpendingSummaryDto[];

  @ApiProperty()
  budget_total_monthly!: number;

  @ApiProperty({ description: 'Can exceed 100' })
  budget_used_percent!: number;

  @ApiProperty({ enum: BUDGET_ALERT_LEVELS })
  alert_level!: string;

  @ApiProperty()
  currency!: string;

  @ApiProperty({ type: SpendingForecastDto })
  forecast!: SpendingForecastDto;
}
