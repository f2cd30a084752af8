import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsIn,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

import {
  AGENT_NAME_MAX_LENGTH,
  AUTONOMY_LEVELS,
  type AutonomyLevel,
  MODEL_TIERS,
  SENIORITY_LEVELS,
  type SeniorityLevel,
} from '@app/domain';

@ApiSchema({ name: 'SetupStatusResponse' })
export class SetupStatusDto {
  @ApiProperty({ description: 'No CEO account exists yet (POST /auth/setup first)' })
  needs_admin!: boolean;

  @ApiProperty({ description: 'Setup has not been completed' })
  needs_setup!: boolean;

  @ApiProperty()
  has_company!: boolean;

  @ApiProperty()
  has_agents!: boolean;

  @ApiProperty()
  has_providers!: boolean;

  @ApiProperty()
  has_name_locales!: boolean;

  @ApiProperty({ type: 'integer' })
  min_password_length!: number;
}

@ApiSchema({ name: 'TemplateVariableResponse' })
export class TemplateVariableDto {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ enum: ['str', 'int', 'float', 'bool'] })
  var_type!: string;

  @ApiProperty({ nullable: true, oneOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] })
  default!: string | number | boolean | null;

  @ApiProperty()
  required!: boolean;
}

@ApiSchema({ name: 'TemplateInfoResponse' })
export class TemplateSummaryDto {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  display_name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ enum: ['builtin', 'user'] })
  source!: string;

  @ApiProperty({ type: [String] })
  tags!: string[];

  @ApiProperty({ type: [String] })
  skill_patterns!: string[];

  @ApiProperty({ type: [TemplateVariableDto] })
  variables!: TemplateVariableDto[];

  @ApiProperty({ type: 'integer' })
  agent_count!: number;

  @ApiProperty({ type: 'integer' })
  department_count!: number;

  @ApiProperty({ enum: AUTONOMY_LEVELS })
  autonomy_level!: string;

  @ApiProperty({ enum: ['kanban', 'agile_kanban'] })
  workflow!: string;
}

/** A department a template creates. */
@ApiSchema({ name: 'TemplateDepartment' })
export class TemplateDepartmentDto {
  @ApiProperty()
  name!: string;

  @ApiProperty({ description: 'Share of the monthly budget, 0 to 100' })
  budget_percent!: number;

  @ApiProperty({ type: String, nullable: true, description: 'Role expected to lead the department' })
  head_role!: string | null;
}

/** An agent a template hires (its roster entries expanded, with the default variables). */
@ApiSchema({ name: 'TemplateAgent' })
export class TemplateAgentDto {
  @ApiProperty({ type: String, nullable: true, description: 'Fixed by the template; null: named when hired' })
  name!: string | null;

  @ApiProperty()
  role!: string;

  @ApiProperty()
  department!: string;

  @ApiProperty({ enum: SENIORITY_LEVELS })
  level!: string;

  @ApiProperty({ enum: MODEL_TIERS })
  model_tier!: string;

  @ApiProperty()
  personality_preset!: string;
}

/** One template in full: what creating a company from it with its defaults would set up. */
@ApiSchema({ name: 'TemplateDetailResponse' })
export class TemplateDetailDto extends TemplateSummaryDto {
  @ApiProperty({ description: 'Monthly budget with the default variables' })
  budget_monthly!: number;

  @ApiProperty({ type: [TemplateDepartmentDto] })
  departments!: TemplateDepartmentDto[];

  @ApiProperty({ type: [TemplateAgentDto] })
  agents!: TemplateAgentDto[];
}

@ApiSchema({ name: 'SetupCompanyRequest' })
export class CreateCompanyDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  company_name!: string;

  @ApiPropertyOptional({ maxLength: 1000 })
  @IsOptional()
  @IsString()
  @MaxLength(1000)
  description?: string;

  @ApiPropertyOptional({
    maxLength: 100,
    description: 'A template from GET /setup/templates; omit for a blank company',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  template_name?: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description: "Values for the template's variables (e.g. budget, num_backend_devs)",
  })
  @IsOptional()
  @IsObject()
  variables?: Record<string, unknown>;
}

@ApiSchema({ name: 'SetupAgentSummary' })
export class SetupAgentSummaryDto {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  role!: string;

  @ApiProperty()
  department!: string;

  @ApiProperty({ enum: SENIORITY_LEVELS, nullable: true })
  level!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  model_provider!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  model_id!: string | null;

  @ApiProperty({ enum: ['small', 'medium', 'large'] })
  tier!: string;

  @ApiProperty({ type: 'string', nullable: true })
  personality_preset!: string | null;
}

@ApiSchema({ name: 'SetupCompanyResponse' })
export class CreateCompanyResponseDto {
  @ApiProperty()
  company_name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: 'string', nullable: true })
  template_applied!: string | null;

  @ApiProperty({ type: 'integer' })
  department_count!: number;

  @ApiProperty({ type: 'integer' })
  agent_count!: number;

  @ApiProperty({ type: [SetupAgentSummaryDto] })
  agents!: SetupAgentSummaryDto[];
}

@ApiSchema({ name: 'SetupAgentsListResponse' })
export class SetupAgentListDto {
  @ApiProperty({ type: [SetupAgentSummaryDto], description: 'In stored order: the index is the agent_index' })
  agents!: SetupAgentSummaryDto[];

  @ApiProperty({ type: 'integer' })
  agent_count!: number;
}

@ApiSchema({ name: 'SetupAgentRequest' })
export class CreateSetupAgentDto {
  @ApiProperty({ minLength: 1, maxLength: AGENT_NAME_MAX_LENGTH, description: 'Addressable as /agents/{agent_name}' })
  @IsString()
  @MinLength(1)
  @MaxLength(AGENT_NAME_MAX_LENGTH)
  name!: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  role!: string;

  @ApiPropertyOptional({ enum: SENIORITY_LEVELS, default: 'mid' })
  @IsOptional()
  @IsIn(SENIORITY_LEVELS)
  level?: SeniorityLevel;

  @ApiPropertyOptional({ maxLength: 100, default: 'pragmatic_builder' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  personality_preset?: string;

  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  model_provider!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  model_id!: string;

  @ApiPropertyOptional({ maxLength: 128, default: 'engineering' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  department?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1_000_000 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1_000_000)
  budget_limit_monthly?: number;

  @ApiPropertyOptional({ enum: AUTONOMY_LEVELS, description: 'Omit to inherit; junior agents cannot be full' })
  @IsOptional()
  @IsIn(AUTONOMY_LEVELS)
  autonomy_level?: AutonomyLevel;
}

@ApiSchema({ name: 'UpdateAgentModelRequest' })
export class SetAgentModelDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  model_provider!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  model_id!: string;
}

@ApiSchema({ name: 'UpdateAgentNameRequest' })
export class SetAgentNameDto {
  @ApiProperty({ minLength: 1, maxLength: AGENT_NAME_MAX_LENGTH, description: 'Addressable as /agents/{agent_name}' })
  @IsString()
  @MinLength(1)
  @MaxLength(AGENT_NAME_MAX_LENGTH)
  name!: string;
}

@ApiSchema({ name: 'UpdateAgentPersonalityRequest' })
export class SetAgentPersonalityDto {
  @ApiProperty({ minLength: 1, maxLength: 100 })
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  personality_preset!: string;
}

@ApiSchema({ name: 'PersonalityPresetInfoResponse' })
export class PersonalityPresetBriefDto {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  description!: string;
}

@ApiSchema({ name: 'PersonalityPresetsListResponse' })
export class SetupPersonalityPresetsDto {
  @ApiProperty({ type: [PersonalityPresetBriefDto] })
  presets!: PersonalityPresetBriefDto[];
}

@ApiSchema({ name: 'AvailableLocalesResponse' })
export class AvailableNameLocalesDto {
  @ApiProperty({ type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } })
  regions!: Record<string, readonly string[]>;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  display_names!: Record<string, string>;
}

@ApiSchema({ name: 'SetupNameLocalesRequest' })
export class NameLocalesDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: 100, description: 'Locale codes, or ["__all__"]' })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(32, { each: true })
  locales!: string[];
}

/** The stored name locales, as GET and PUT /setup/name-locales answer them. */
@ApiSchema({ name: 'SetupNameLocalesResponse' })
export class NameLocalesResponseDto extends NameLocalesDto {}

@ApiSchema({ name: 'SetupCompleteResponse' })
export class SetupCompleteDto {
  @ApiProperty()
  setup_complete!: boolean;

  @ApiProperty({ type: [String], description: 'Reinitialisation steps that ran, in order' })
  reinitialised!: string[];
}
