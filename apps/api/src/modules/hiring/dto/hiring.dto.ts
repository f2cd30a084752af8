import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsIn, IsNumber, IsOptional, IsString, Length, Max, Min } from 'class-validator';

import {
  HIRING_LIMITS as L,
  HIRING_STATUSES,
  type HiringStatus,
  ONBOARDING_STEP_STATES,
  ONBOARDING_STEPS,
  SENIORITY_LEVELS,
  type SeniorityLevel,
} from '@app/domain';
import { PageQueryDto } from '@app/platform';

/** The body that files a hiring request. */
@ApiSchema({ name: 'CreateHiringRequest' })
export class CreateHiringRequestDto {
  @ApiProperty({ description: "One of the company's departments", minLength: 1, maxLength: L.department })
  @IsString()
  @Length(1, L.department)
  department!: string;

  @ApiProperty({ minLength: 1, maxLength: L.role, example: 'Backend Developer' })
  @IsString()
  @Length(1, L.role)
  role!: string;

  @ApiProperty({ enum: SENIORITY_LEVELS })
  @IsIn(SENIORITY_LEVELS)
  level!: SeniorityLevel;

  @ApiProperty({ type: [String], maxItems: L.skills, example: ['python', 'api-design'] })
  @IsArray()
  @ArrayMaxSize(L.skills)
  @IsString({ each: true })
  @Length(1, L.skill, { each: true })
  required_skills!: string[];

  @ApiProperty({ minLength: 1, maxLength: L.reason })
  @IsString()
  @Length(1, L.reason)
  reason!: string;

  @ApiPropertyOptional({
    description: "The new agent's monthly limit (null: none)",
    type: Number,
    nullable: true,
    minimum: 0,
    maximum: L.budgetLimitMonthly,
  })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(L.budgetLimitMonthly)
  budget_limit_monthly?: number | null;

  @ApiPropertyOptional({
    description: "Template for candidates (absent or null: the company's)",
    type: String,
    nullable: true,
    maxLength: L.templateName,
  })
  @IsOptional()
  @IsString()
  @Length(1, L.templateName)
  template_name?: string | null;
}

/** Filters of the hiring request list. */
export class HiringRequestQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: HIRING_STATUSES })
  @IsOptional()
  @IsIn(HIRING_STATUSES)
  status?: HiringStatus;
}

/** The body that picks a candidate. */
@ApiSchema({ name: 'SelectCandidateRequest' })
export class SelectCandidateDto {
  @ApiProperty({ minLength: 1, maxLength: 36 })
  @IsString()
  @Length(1, 36)
  candidate_id!: string;
}

/** A candidate for a hiring request (engine.md §13). */
@ApiSchema({ name: 'CandidateCard' })
export class CandidateCardDto {
  @ApiProperty() id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() role!: string;
  @ApiProperty() department!: string;
  @ApiProperty({ enum: SENIORITY_LEVELS }) level!: string;
  @ApiProperty({ type: [String] }) skills!: string[];
  @ApiProperty() rationale!: string;
  @ApiProperty({ description: 'At the model prices, for 1M input and 250k output tokens' })
  estimated_monthly_cost!: number;
  @ApiProperty({ type: String, nullable: true, description: 'The template the role came from' })
  template_source!: string | null;
  @ApiProperty() personality_preset!: string;
  @ApiProperty() model_provider!: string;
  @ApiProperty() model_id!: string;
}

/** A request to hire one agent (engine.md §13). */
@ApiSchema({ name: 'HiringRequest' })
export class HiringRequestDto {
  @ApiProperty() id!: string;
  @ApiProperty() requested_by!: string;
  @ApiProperty() department!: string;
  @ApiProperty() role!: string;
  @ApiProperty({ enum: SENIORITY_LEVELS }) level!: string;
  @ApiProperty({ type: [String] }) required_skills!: string[];
  @ApiProperty() reason!: string;
  @ApiProperty({ type: Number, nullable: true }) budget_limit_monthly!: number | null;
  @ApiProperty({ type: String, nullable: true }) template_name!: string | null;
  @ApiProperty({ enum: HIRING_STATUSES }) status!: string;
  @ApiProperty({ format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: [CandidateCardDto] }) candidates!: CandidateCardDto[];
  @ApiProperty({ type: String, nullable: true }) selected_candidate_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) approval_id!: string | null;
  @ApiProperty({ type: String, nullable: true }) decided_by!: string | null;
  @ApiProperty({ type: String, nullable: true }) agent_id!: string | null;
}

/** One step of a new agent's onboarding checklist. */
@ApiSchema({ name: 'OnboardingStep' })
export class OnboardingStepDto {
  @ApiProperty({ enum: ONBOARDING_STEPS }) name!: string;
  @ApiProperty({ enum: ONBOARDING_STEP_STATES }) state!: string;
  @ApiProperty({ description: 'The task the agent runs it in' }) task_id!: string;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: String, nullable: true }) reason!: string | null;
  @ApiProperty({ type: String, nullable: true }) summary!: string | null;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) completed_at!: string | null;
}

/** A new agent's onboarding checklist. */
@ApiSchema({ name: 'Onboarding' })
export class OnboardingDto {
  @ApiProperty() agent_id!: string;
  @ApiProperty() agent_name!: string;
  @ApiProperty({ type: String, nullable: true }) hiring_request_id!: string | null;
  @ApiProperty({ type: [OnboardingStepDto] }) steps!: OnboardingStepDto[];
  @ApiProperty({ format: 'date-time' }) started_at!: string;
  @ApiProperty({ type: String, nullable: true, format: 'date-time' }) completed_at!: string | null;
}
