import { ApiProperty } from '@nestjs/swagger';

import { AUTONOMY_LEVELS } from '@app/domain';

import { AgentConfigDto } from '../../agents/dto/agent.dto';

const OBJECT = { type: 'object', additionalProperties: true } as const;

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

export class CostTrendPointDto {
  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty()
  value!: number;
}

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

export class CompanyAutonomyDto {
  @ApiProperty({ enum: AUTONOMY_LEVELS })
  level!: string;
}

export class CompanyConfigDto {
  @ApiProperty({ type: CompanyAutonomyDto })
  autonomy!: CompanyAutonomyDto;

  @ApiProperty({ minimum: 0 })
  budget_monthly!: number;

  @ApiProperty({ examples: ['USD'] })
  currency!: string;

  @ApiProperty()
  communication_pattern!: string;

  @ApiProperty()
  workflow!: string;

  @ApiProperty({ type: 'string', nullable: true })
  ceremony_strategy!: string | null;
}

/** The company: identity, configuration, departments and its roster. */
export class CompanyDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'The same as `name`, under the name clients of the setup wizard read' })
  company_name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty()
  type!: string;

  @ApiProperty({ type: 'string', nullable: true })
  template_name!: string | null;

  @ApiProperty({ type: [DepartmentDto] })
  departments!: DepartmentDto[];

  @ApiProperty({ type: [AgentConfigDto], description: 'Every agent on the roster, in roster order' })
  agents!: AgentConfigDto[];

  @ApiProperty({ type: 'integer' })
  agent_count!: number;

  @ApiProperty({ type: CompanyConfigDto })
  config!: CompanyConfigDto;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
