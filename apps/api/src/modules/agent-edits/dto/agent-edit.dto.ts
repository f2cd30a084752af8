import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

import { AGENT_NAME_MAX_LENGTH, EDITABLE_AGENT_STATUSES, MEMORY_TYPES, TOOL_ACCESS_LEVELS } from '@app/domain';
import { IsOptionalNonNull } from '@app/platform';

import { PERSONALITY_UPDATE_BODY } from '../../agents';

/** Highest monthly or per-task budget an agent may be given (amounts in the company's currency). */
const MAX_BUDGET = 1_000_000_000;
/** Longest list of tool names, action types or agents in one field. */
const MAX_LIST = 100;
const NAME_MAX = 100;

/** A list of short names (tools, action types, agent names or roles). */
function NameList(): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: [String], maxItems: MAX_LIST }),
    IsOptionalNonNull(),
    IsArray(),
    ArrayMaxSize(MAX_LIST),
    IsString({ each: true }),
    MinLength(1, { each: true }),
    MaxLength(NAME_MAX, { each: true }),
  );
}

/** A group of an agent's settings (its schema documents it): each given field replaces its value, the others stay. */
function Group(group: new () => object): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({ type: group }),
    IsOptionalNonNull(),
    IsObject(),
    ValidateNested(),
    Type(() => group),
  );
}

@ApiSchema({ name: 'AgentModelUpdate' })
export class AgentModelUpdateDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  provider?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 200,
    description: "An id or alias of `provider`'s models (or the current provider's)",
  })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  model_id?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 2 })
  @IsOptionalNonNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(2)
  temperature?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 1_000_000 })
  @IsOptionalNonNull()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  max_tokens?: number;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: 200,
    description: 'A model id or alias some provider offers; null: none',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  fallback_model?: string | null;
}

@ApiSchema({ name: 'AgentToolsUpdate' })
export class AgentToolsUpdateDto {
  @ApiPropertyOptional({ enum: TOOL_ACCESS_LEVELS })
  @IsOptionalNonNull()
  @IsIn(TOOL_ACCESS_LEVELS)
  access_level?: string;

  /** Tools granted whatever the access level. */
  @NameList()
  allowed?: string[];

  /** Tools refused whatever the access level (wins over `allowed`). */
  @NameList()
  denied?: string[];
}

@ApiSchema({ name: 'AgentMemoryUpdate' })
export class AgentMemoryUpdateDto {
  @ApiPropertyOptional({ enum: MEMORY_TYPES })
  @IsOptionalNonNull()
  @IsIn(MEMORY_TYPES)
  type?: string;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: 36_500, description: 'null: keep' })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(36_500)
  retention_days?: number | null;
}

@ApiSchema({ name: 'AgentAuthorityUpdate' })
export class AgentAuthorityUpdateDto {
  /** What the agent may approve. */
  @NameList()
  can_approve?: string[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    minLength: 1,
    maxLength: AGENT_NAME_MAX_LENGTH,
    description: 'An agent name or a role; null: nobody',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(AGENT_NAME_MAX_LENGTH)
  reports_to?: string | null;

  /** Roles or agent names the agent may hand work to; empty: any subordinate. */
  @NameList()
  can_delegate_to?: string[];

  @ApiPropertyOptional({ minimum: 0, maximum: MAX_BUDGET, description: 'Spending cap per task; 0: none' })
  @IsOptionalNonNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_BUDGET)
  budget_limit?: number;
}

/**
 * An edit of an agent: every field is optional and only the given ones change (inside a group, only
 * its given fields). `null` clears the fields documented as nullable and is refused elsewhere.
 */
@ApiSchema({ name: 'UpdateAgentRequest' })
export class UpdateAgentDto {
  @ApiPropertyOptional({
    minLength: 1,
    maxLength: AGENT_NAME_MAX_LENGTH,
    description: 'Rename (a name another agent has: 409)',
  })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(AGENT_NAME_MAX_LENGTH)
  name?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 128, description: "Move to another of the company's departments" })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  department?: string;

  @ApiPropertyOptional({ enum: EDITABLE_AGENT_STATUSES })
  @IsOptionalNonNull()
  @IsIn(EDITABLE_AGENT_STATUSES)
  status?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 100,
    description: "A preset's personality (`personality` fields go over it)",
  })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  personality_preset?: string;

  @ApiPropertyOptional({
    allOf: [PERSONALITY_UPDATE_BODY],
    description: 'Fields over the current ones; then no preset',
  })
  @IsOptionalNonNull()
  @IsObject()
  personality?: Record<string, unknown>;

  /** Takes effect at the next task the agent starts, never inside a run. */
  @Group(AgentModelUpdateDto)
  model?: AgentModelUpdateDto;

  @Group(AgentToolsUpdateDto)
  tools?: AgentToolsUpdateDto;

  @Group(AgentMemoryUpdateDto)
  memory?: AgentMemoryUpdateDto;

  @Group(AgentAuthorityUpdateDto)
  authority?: AgentAuthorityUpdateDto;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: MAX_BUDGET,
    description: "Counts against the department's share of the budget; null: none",
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_BUDGET)
  budget_limit_monthly?: number | null;

  @ApiPropertyOptional({ minLength: 1, maxLength: 500, description: 'Why: kept with the career event' })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(500)
  reason?: string;
}
