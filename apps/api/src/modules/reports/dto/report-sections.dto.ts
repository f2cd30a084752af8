import { ApiProperty, ApiSchema } from '@nestjs/swagger';

/** Spend of one UTC day of the period. */
@ApiSchema({ name: 'ReportSpendDay' })
export class ReportSpendDayDto {
  @ApiProperty({ format: 'date' })
  date!: string;

  @ApiProperty({ type: 'number' })
  cost_usd!: number;

  @ApiProperty({ type: 'integer' })
  record_count!: number;
}

/** What the period cost, day by day, against the period before it. */
@ApiSchema({ name: 'ReportSpendingSection' })
export class SpendingSectionDto {
  @ApiProperty({ type: 'number' })
  total_cost_usd!: number;

  @ApiProperty({ type: 'integer' })
  total_input_tokens!: number;

  @ApiProperty({ type: 'integer' })
  total_output_tokens!: number;

  @ApiProperty({ type: 'integer' })
  record_count!: number;

  @ApiProperty({ type: 'number' })
  previous_period_cost_usd!: number;

  @ApiProperty({
    type: 'number',
    nullable: true,
    description: 'Change against the previous period; null when it cost nothing',
  })
  change_percent!: number | null;

  @ApiProperty({ type: [ReportSpendDayDto] })
  daily!: ReportSpendDayDto[];

  @ApiProperty({ example: 'EUR' })
  currency!: string;
}

/** One agent's runs in the period. */
@ApiSchema({ name: 'ReportAgentPerformance' })
export class AgentPerformanceRowDto {
  @ApiProperty()
  agent_id!: string;

  @ApiProperty({ nullable: true, type: 'string', description: 'null for an agent no longer on the roster' })
  agent_name!: string | null;

  @ApiProperty({ nullable: true, type: 'string' })
  department!: string | null;

  @ApiProperty({ type: 'integer' })
  tasks_completed!: number;

  @ApiProperty({ type: 'integer' })
  tasks_failed!: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 1 })
  success_rate!: number;

  @ApiProperty({ type: 'number' })
  avg_duration_seconds!: number;

  @ApiProperty({ type: 'number' })
  total_cost_usd!: number;

  @ApiProperty({ type: 'number', nullable: true })
  avg_quality_score!: number | null;
}

/** Per-agent outcomes of the period's runs, busiest first. */
@ApiSchema({ name: 'ReportPerformanceSection' })
export class PerformanceSectionDto {
  @ApiProperty({ type: [AgentPerformanceRowDto] })
  agents!: AgentPerformanceRowDto[];
}

/** Completion counts of one department (or of the whole organisation). */
@ApiSchema({ name: 'ReportCompletionCounts' })
export class CompletionCountsDto {
  @ApiProperty({ type: 'integer' })
  runs!: number;

  @ApiProperty({ type: 'integer' })
  completed!: number;

  @ApiProperty({ type: 'integer' })
  failed!: number;

  @ApiProperty({ type: 'number', minimum: 0, maximum: 1 })
  completion_rate!: number;
}

/** One department's completion counts. */
@ApiSchema({ name: 'ReportDepartmentCompletion' })
export class DepartmentCompletionDto extends CompletionCountsDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'null for runs of agents no longer on the roster' })
  department!: string | null;
}

/** How many runs of the period completed their task, overall and per department. */
@ApiSchema({ name: 'ReportTaskCompletionSection' })
export class TaskCompletionSectionDto extends CompletionCountsDto {
  @ApiProperty({ type: [DepartmentCompletionDto] })
  by_department!: DepartmentCompletionDto[];
}

/** Risk units of one UTC day. */
@ApiSchema({ name: 'ReportRiskDay' })
export class RiskDayDto {
  @ApiProperty({ format: 'date' })
  date!: string;

  @ApiProperty({ type: 'number' })
  risk_units!: number;
}

/** Risk taken in the period, per agent, per action type and per day. */
@ApiSchema({ name: 'ReportRiskTrendsSection' })
export class RiskTrendsSectionDto {
  @ApiProperty({ type: 'number' })
  total_risk_units!: number;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } })
  by_agent!: Record<string, number>;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'number' } })
  by_action_type!: Record<string, number>;

  @ApiProperty({ type: [RiskDayDto] })
  daily!: RiskDayDto[];
}
