import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';

import { AGENT_STATUSES, AUTONOMY_LEVELS, CAREER_HISTORY_TYPES, MODEL_TIERS, SENIORITY_LEVELS } from '@app/domain';

const OBJECT = { type: 'object', additionalProperties: true } as const;

@ApiSchema({ name: 'ModelConfig' })
export class AgentModelDto {
  @ApiProperty({ type: 'string', nullable: true })
  provider!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  model_id!: string | null;

  @ApiProperty({ minimum: 0, maximum: 2 })
  temperature!: number;

  @ApiProperty({ type: 'integer' })
  max_tokens!: number;

  @ApiProperty({ type: 'string', nullable: true })
  fallback_model!: string | null;
}

/** AgentConfig: an agent as configured on the roster. */
@ApiSchema({ name: 'AgentConfig' })
export class AgentConfigDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  role!: string;

  @ApiProperty()
  department!: string;

  @ApiProperty({ enum: SENIORITY_LEVELS })
  level!: string;

  @ApiProperty({ enum: AGENT_STATUSES })
  status!: string;

  @ApiProperty({ type: 'string', nullable: true })
  personality_preset!: string | null;

  @ApiProperty(OBJECT)
  personality!: Record<string, unknown>;

  @ApiProperty({ type: AgentModelDto })
  model!: AgentModelDto;

  @ApiProperty({ enum: MODEL_TIERS })
  tier!: string;

  @ApiProperty({ enum: AUTONOMY_LEVELS, nullable: true, description: 'null: inherit the department or company level' })
  autonomy_level!: string | null;

  @ApiProperty({ type: 'number', nullable: true })
  budget_limit_monthly!: number | null;

  @ApiProperty(OBJECT)
  memory!: Record<string, unknown>;

  @ApiProperty(OBJECT)
  tools!: Record<string, unknown>;

  @ApiProperty(OBJECT)
  authority!: Record<string, unknown>;

  @ApiProperty(OBJECT)
  skills!: Record<string, unknown>;

  @ApiProperty({ format: 'date-time' })
  hiring_date!: string;
}

@ApiSchema({ name: 'CareerEvent' })
export class CareerEventDto {
  @ApiProperty({ enum: CAREER_HISTORY_TYPES })
  event_type!: string;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty({ maxLength: 1024 })
  description!: string;

  @ApiProperty()
  initiated_by!: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  metadata!: Record<string, string>;
}

@ApiSchema({ name: 'WindowMetrics' })
export class WindowMetricsDto {
  @ApiProperty({ enum: ['7d', '30d', '90d'] })
  window_size!: string;

  @ApiProperty({ type: 'integer' })
  data_point_count!: number;

  @ApiProperty({ type: 'integer' })
  tasks_completed!: number;

  @ApiProperty({ type: 'integer' })
  tasks_failed!: number;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  avg_quality_score!: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  avg_cost_per_task!: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  avg_completion_time_seconds!: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  avg_tokens_per_task!: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  success_rate!: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true })
  collaboration_score!: number | null;
}

@ApiSchema({ name: 'TrendResult' })
export class TrendResultDto {
  @ApiProperty()
  metric_name!: string;

  @ApiProperty()
  window_size!: string;

  @ApiProperty({ enum: ['improving', 'stable', 'declining', 'insufficient_data'] })
  direction!: string;

  @ApiProperty()
  slope!: number;

  @ApiProperty({ type: 'integer' })
  data_point_count!: number;
}

@ApiSchema({ name: 'AgentPerformanceSummary' })
export class AgentPerformanceSummaryDto {
  @ApiProperty()
  agent_name!: string;

  @ApiProperty({ type: 'integer' })
  tasks_completed_total!: number;

  @ApiProperty({ type: 'integer' })
  tasks_completed_7d!: number;

  @ApiProperty({ type: 'integer' })
  tasks_completed_30d!: number;

  @ApiProperty({ type: 'number', nullable: true })
  avg_completion_time_seconds!: number | null;

  @ApiProperty({ type: 'number', nullable: true })
  cost_per_task!: number | null;

  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 100 })
  success_rate_percent!: number | null;

  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 10 })
  quality_score!: number | null;

  @ApiProperty({ type: 'number', nullable: true, minimum: 0, maximum: 10 })
  collaboration_score!: number | null;

  @ApiProperty({ enum: ['improving', 'stable', 'declining', 'insufficient_data'] })
  trend_direction!: string;

  @ApiProperty({ type: [WindowMetricsDto] })
  windows!: WindowMetricsDto[];

  @ApiProperty({ type: [TrendResultDto] })
  trends!: TrendResultDto[];
}
