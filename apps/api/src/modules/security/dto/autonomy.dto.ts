import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength, ValidateIf } from 'class-validator';

import { ACTION_TYPES, AUTONOMY_DOWNGRADE_REASONS, AUTONOMY_LEVELS } from '@app/domain';

/** An automatic downgrade in force: lifted only when a person sets the level again. */
@ApiSchema({ name: 'AutonomyDowngrade' })
export class AutonomyDowngradeDto {
  @ApiProperty({ enum: AUTONOMY_LEVELS, description: 'The level in force before the first downgrade' })
  original_level!: string;

  @ApiProperty({ enum: AUTONOMY_LEVELS })
  current_level!: string;

  @ApiProperty({ enum: AUTONOMY_DOWNGRADE_REASONS })
  reason!: string;

  @ApiProperty({ maxLength: 1024 })
  detail!: string;

  @ApiProperty({ format: 'date-time' })
  downgraded_at!: string;

  @ApiProperty({ enum: [true] })
  requires_human_recovery!: true;
}

/** An agent's autonomy: the level in force, where it comes from, and what it lets the agent do. */
@ApiSchema({ name: 'AgentAutonomy' })
export class AgentAutonomyDto {
  @ApiProperty()
  agent_id!: string;

  @ApiProperty()
  agent_name!: string;

  @ApiProperty({ enum: AUTONOMY_LEVELS, description: 'The level in force' })
  level!: string;

  @ApiProperty({ enum: ['agent', 'department', 'company', 'default', 'downgrade'] })
  source!: string;

  @ApiProperty({ enum: AUTONOMY_LEVELS, nullable: true, description: "The agent's own level (null: inherit)" })
  agent_level!: string | null;

  @ApiProperty({ enum: AUTONOMY_LEVELS, nullable: true })
  department_level!: string | null;

  @ApiProperty({ enum: AUTONOMY_LEVELS, description: 'company.autonomy_level' })
  company_level!: string;

  @ApiProperty({ type: AutonomyDowngradeDto, nullable: true })
  downgrade!: AutonomyDowngradeDto | null;

  @ApiProperty({ type: [String], enum: ACTION_TYPES, description: 'Actions approved without a person' })
  auto_approve!: string[];

  @ApiProperty({ type: [String], enum: ACTION_TYPES, description: 'Actions that go to a person' })
  human_approval!: string[];

  @ApiProperty({ description: 'Whether the security agent reviews the calls at this level' })
  security_agent!: boolean;
}

/** A person sets an agent's own autonomy level; null inherits again. Lifts any downgrade. */
@ApiSchema({ name: 'UpdateAgentAutonomyRequest' })
export class UpdateAgentAutonomyDto {
  @ApiProperty({ enum: AUTONOMY_LEVELS, nullable: true, description: 'null: inherit the department or company level' })
  @ValidateIf((_o, value) => value !== null)
  @IsIn(AUTONOMY_LEVELS)
  level!: string | null;

  @ApiPropertyOptional({ maxLength: 1024, description: 'Why, for the audit record' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}

/** A department's autonomy: its own level (null: inherit) and the level its agents inherit. */
@ApiSchema({ name: 'DepartmentAutonomy' })
export class DepartmentAutonomyDto {
  @ApiProperty()
  department!: string;

  @ApiProperty({ enum: AUTONOMY_LEVELS, nullable: true, description: "The department's own level (null: inherit)" })
  autonomy_level!: string | null;

  @ApiProperty({ enum: AUTONOMY_LEVELS, description: 'company.autonomy_level' })
  company_level!: string;

  @ApiProperty({
    enum: AUTONOMY_LEVELS,
    description: 'What agents without a level of their own inherit (juniors never above semi)',
  })
  level!: string;
}

/** A person sets a department's autonomy level; null inherits the company default again. */
@ApiSchema({ name: 'UpdateDepartmentAutonomyRequest' })
export class UpdateDepartmentAutonomyDto {
  @ApiProperty({ enum: AUTONOMY_LEVELS, nullable: true, description: 'null: inherit the company level' })
  @ValidateIf((_o, value) => value !== null)
  @IsIn(AUTONOMY_LEVELS)
  level!: string | null;

  @ApiPropertyOptional({ maxLength: 1024, description: 'Why, for the audit record' })
  @IsOptional()
  @IsString()
  @MaxLength(1024)
  reason?: string;
}
