import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

import { CALL_CATEGORIES } from '@app/domain';
import { PageQueryDto } from '@app/platform';

export class BudgetRecordsQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 128 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  agent_id?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 128 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  task_id?: string;
}

/** One model call's cost (spec "Cost record"). */
@ApiSchema({ name: 'CostRecord' })
export class CostRecordDto {
  @ApiProperty()
  agent_id!: string;

  @ApiProperty({ type: String, nullable: true })
  task_id!: string | null;

  @ApiProperty()
  provider!: string;

  @ApiProperty()
  model!: string;

  @ApiProperty({ minimum: 0 })
  input_tokens!: number;

  @ApiProperty({ minimum: 0 })
  output_tokens!: number;

  @ApiProperty({ minimum: 0 })
  total_tokens!: number;

  @ApiProperty({ minimum: 0, description: 'In the configured currency (the name is kept)' })
  cost_usd!: number;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty({ enum: CALL_CATEGORIES })
  call_category!: string;
}

@ApiSchema({ name: 'DailySummary' })
export class DailySummaryDto {
  @ApiProperty({ format: 'date' })
  date!: string;

  @ApiProperty()
  total_cost_usd!: number;

  @ApiProperty()
  total_input_tokens!: number;

  @ApiProperty()
  total_output_tokens!: number;

  @ApiProperty()
  record_count!: number;

  @ApiProperty()
  currency!: string;
}

@ApiSchema({ name: 'PeriodSummary' })
export class PeriodSummaryDto {
  @ApiProperty()
  avg_cost_usd!: number;

  @ApiProperty()
  total_cost_usd!: number;

  @ApiProperty()
  total_input_tokens!: number;

  @ApiProperty()
  total_output_tokens!: number;

  @ApiProperty()
  record_count!: number;

  @ApiProperty()
  currency!: string;
}

/** What `GET /budget/records` answers beside the page: summaries over every matching record. */
@ApiSchema({ name: 'BudgetRecordsSummaries' })
export class BudgetRecordsSummariesDto {
  @ApiProperty({ type: [DailySummaryDto], description: 'Per UTC day, over every matching record' })
  daily_summary!: DailySummaryDto[];

  @ApiProperty({ type: PeriodSummaryDto, description: 'Over every matching record' })
  period_summary!: PeriodSummaryDto;

  @ApiProperty({ description: 'ISO 4217 code of the amounts' })
  currency!: string;
}

/** `GET /budget/agents/{agent_id}`. */
@ApiSchema({ name: 'AgentSpending' })
export class AgentSpendingDto {
  @ApiProperty()
  agent_id!: string;

  @ApiProperty()
  total_cost_usd!: number;

  @ApiProperty()
  currency!: string;
}
