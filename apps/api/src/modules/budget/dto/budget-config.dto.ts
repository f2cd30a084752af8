import { ApiProperty, ApiSchema } from '@nestjs/swagger';

@ApiSchema({ name: 'BudgetAlertConfig' })
export class BudgetAlertsDto {
  @ApiProperty({ minimum: 0, maximum: 100 })
  warn_at!: number;

  @ApiProperty({ minimum: 0, maximum: 100 })
  critical_at!: number;

  @ApiProperty({ minimum: 0, maximum: 100 })
  hard_stop_at!: number;
}

@ApiSchema({ name: 'AutoDowngradeConfig' })
export class AutoDowngradeDto {
  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({ minimum: 0, maximum: 100, description: 'Percent of the budget used' })
  threshold!: number;

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
    description: 'Ordered [from, to] pairs of model aliases',
  })
  downgrade_map!: string[][];

  @ApiProperty({ enum: ['task_assignment'] })
  boundary!: 'task_assignment';
}

@ApiSchema({ name: 'RiskBudgetAlertConfig' })
export class RiskBudgetAlertsDto {
  @ApiProperty({ minimum: 0, maximum: 100 })
  warn_at!: number;

  @ApiProperty({ minimum: 0, maximum: 100 })
  critical_at!: number;
}

@ApiSchema({ name: 'RiskBudgetConfig' })
export class RiskBudgetDto {
  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({ minimum: 0, description: '0 is unlimited' })
  per_task_risk_limit!: number;

  @ApiProperty({ minimum: 0, description: '0 is unlimited' })
  per_agent_daily_risk_limit!: number;

  @ApiProperty({ minimum: 0, description: '0 is unlimited' })
  total_daily_risk_limit!: number;

  @ApiProperty({ type: RiskBudgetAlertsDto })
  alerts!: RiskBudgetAlertsDto;
}

/** `GET /budget/config`: the reference's BudgetConfig plus `risk_budget`. */
@ApiSchema({ name: 'BudgetConfig' })
export class BudgetConfigDto {
  @ApiProperty({ minimum: 0 })
  total_monthly!: number;

  @ApiProperty({ type: BudgetAlertsDto })
  alerts!: BudgetAlertsDto;

  @ApiProperty({ minimum: 0 })
  per_task_limit!: number;

  @ApiProperty({ minimum: 0 })
  per_agent_daily_limit!: number;

  @ApiProperty({ type: AutoDowngradeDto })
  auto_downgrade!: AutoDowngradeDto;

  @ApiProperty({ minimum: 1, maximum: 28 })
  reset_day!: number;

  @ApiProperty({ pattern: '^[A-Z]{3}$', example: 'EUR' })
  currency!: string;

  @ApiProperty({ type: RiskBudgetDto })
  risk_budget!: RiskBudgetDto;
}
