import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsNumber, IsObject, IsOptional, IsPositive, Max } from 'class-validator';

import {
  AUTONOMY_LEVELS,
  CEREMONY_STRATEGIES,
  COMMUNICATION_PATTERNS,
  VELOCITY_CALCULATORS,
  WORKFLOWS,
} from '@app/domain';

import { AgentConfigDto } from '../../agents';

const OBJECT = { type: 'object', additionalProperties: true } as const;

/** A department as the API shows it. */
@ApiSchema({ name: 'Department' })
export class DepartmentDto {
  @ApiProperty()
  name!: string;

  @ApiProperty({ type: 'string', nullable: true, description: "The head's role or agent name" })
  head!: string | null;

  @ApiProperty({ minimum: 0, maximum: 100 })
  budget_percent!: number;

  @ApiProperty({ type: 'array', items: OBJECT })
  teams!: unknown[];

  @ApiProperty({ type: 'array', items: OBJECT })
  reporting_lines!: unknown[];

  @ApiProperty({ enum: AUTONOMY_LEVELS, nullable: true })
  autonomy_level!: string | null;

  @ApiProperty(OBJECT)
  policies!: Record<string, unknown>;

  @ApiProperty({ ...OBJECT, nullable: true })
  ceremony_policy!: Record<string, unknown> | null;

  @ApiProperty({ type: 'integer', description: 'Agents assigned to the department' })
  agent_count!: number;
}

/** One daily point of a department's cost trend. */
@ApiSchema({ name: 'CostTrendPoint' })
export class CostTrendPointDto {
  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty()
  value!: number;
}

/** Head count, utilisation, throughput, quality and cost of a department. */
@ApiSchema({ name: 'DepartmentHealth' })
export class DepartmentHealthDto {
  @ApiProperty()
  department_name!: string;

  @ApiProperty({ type: 'integer' })
  agent_count!: number;

  @ApiProperty({ type: 'integer' })
  active_agent_count!: number;

  @ApiProperty()
  currency!: string;

  @ApiProperty({ type: 'number', nullable: true })
  avg_performance_score!: number | null;

  @ApiProperty()
  department_cost_7d!: number;

  @ApiProperty({ type: [CostTrendPointDto] })
  cost_trend!: CostTrendPointDto[];

  @ApiProperty({ type: 'number', nullable: true })
  collaboration_score!: number | null;

  @ApiProperty()
  utilization_percent!: number;

  @ApiProperty({ type: 'integer' })
  total_runs!: number;

  @ApiProperty({ type: 'number', nullable: true })
  task_success_rate!: number | null;

  @ApiProperty({ type: 'number', nullable: true })
  health_score!: number | null;

  @ApiProperty()
  utilization_degraded!: boolean;
}

/** The company-wide autonomy default. */
@ApiSchema({ name: 'CompanyAutonomy' })
export class CompanyAutonomyDto {
  @ApiProperty({ enum: AUTONOMY_LEVELS })
  level!: string;
}

/** The company's configuration. */
@ApiSchema({ name: 'CompanyConfig' })
export class CompanyConfigDto {
  @ApiProperty({ type: CompanyAutonomyDto })
  autonomy!: CompanyAutonomyDto;

  @ApiProperty({ description: 'Monthly budget, in the company currency' })
  budget_monthly!: number;

  @ApiProperty({ description: 'ISO 4217 code' })
  currency!: string;

  @ApiProperty({ enum: COMMUNICATION_PATTERNS })
  communication_pattern!: string;

  @ApiProperty({ enum: WORKFLOWS })
  workflow!: string;

  @ApiProperty({ enum: CEREMONY_STRATEGIES, nullable: true })
  ceremony_strategy!: string | null;
}

/** The company: identity, configuration, departments and its roster. */
@ApiSchema({ name: 'CompanyResponse' })
export class CompanyDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'The same as `name`, under the name clients of the setup wizard read' })
  company_name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ description: "The template's company type, or custom" })
  type!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The template it was created from (null: blank)' })
  template_name!: string | null;

  @ApiProperty({ type: [DepartmentDto] })
  departments!: DepartmentDto[];

  @ApiProperty({ type: [AgentConfigDto], description: 'Every agent on the roster, in roster order' })
  agents!: AgentConfigDto[];

  @ApiProperty({ type: 'integer', description: 'Agents of the company' })
  agent_count!: number;

  @ApiProperty({ type: CompanyConfigDto })
  config!: CompanyConfigDto;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}

/**
 * A department's ceremony policy (every key optional; a null key inherits and is not stored).
 * The body of PUT /departments/{name}/ceremony-policy and what it answers.
 */
@ApiSchema({ name: 'CeremonyPolicy' })
export class CeremonyPolicyDto {
  @ApiPropertyOptional({ enum: CEREMONY_STRATEGIES, nullable: true })
  @IsOptional()
  @IsIn(CEREMONY_STRATEGIES)
  strategy?: string | null;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'Settings of the strategy, e.g. trigger, every_n_completions, duration_days',
  })
  @IsOptional()
  @IsObject()
  strategy_config?: Record<string, unknown> | null;

  @ApiPropertyOptional({ enum: VELOCITY_CALCULATORS, nullable: true })
  @IsOptional()
  @IsIn(VELOCITY_CALCULATORS)
  velocity_calculator?: string | null;

  @ApiPropertyOptional({ type: 'boolean', nullable: true })
  @IsOptional()
  @IsBoolean()
  auto_transition?: boolean | null;

  @ApiPropertyOptional({ type: 'number', nullable: true, maximum: 1, description: 'Greater than 0, at most 1' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(1)
  transition_threshold?: number | null;
}
