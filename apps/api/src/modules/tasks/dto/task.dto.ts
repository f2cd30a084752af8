import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

import {
  TASK_COMPLEXITIES,
  TASK_LIMITS,
  TASK_PRIORITIES,
  TASK_STATUSES,
  TASK_TYPES,
  type TaskComplexity,
  type TaskPriority,
  type TaskType,
} from '@app/domain';
import { IsOptionalNonNull, PageQueryDto } from '@app/platform';

const MAX_BUDGET = 1_000_000_000;
const MAX_LIST = 100;

@ApiSchema({ name: 'AcceptanceCriterionInput' })
export class AcceptanceCriterionDto {
  @ApiProperty({ minLength: 1, maxLength: 1024 })
  @IsString()
  @MinLength(1)
  @MaxLength(1024)
  description!: string;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsIn([true, false])
  met?: boolean;
}

@ApiSchema({ name: 'CreateTaskRequest' })
export class CreateTaskDto {
  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.titleMax })
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.titleMax)
  title!: string;

  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.descriptionMax })
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.descriptionMax)
  description!: string;

  @ApiProperty({ enum: TASK_TYPES })
  @IsIn(TASK_TYPES)
  type!: TaskType;

  @ApiPropertyOptional({ enum: TASK_PRIORITIES, default: 'medium' })
  @IsOptional()
  @IsIn(TASK_PRIORITIES)
  priority?: TaskPriority;

  @ApiProperty({ minLength: 1, maxLength: 128, description: 'Project id or name' })
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  project!: string;

  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.nameMax, description: 'Who asked for the work' })
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.nameMax)
  created_by!: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: TASK_LIMITS.nameMax,
    description:
      'Agent name or id; the task is created and then assigned (two transitions), which starts its run. ' +
      'Null or absent: unassigned',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.nameMax)
  assigned_to?: string | null;

  @ApiPropertyOptional({ enum: TASK_COMPLEXITIES, default: 'medium' })
  @IsOptional()
  @IsIn(TASK_COMPLEXITIES)
  estimated_complexity?: TaskComplexity;

  @ApiPropertyOptional({ minimum: 0, default: 0, description: 'Per-task spending cap; 0 = none' })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_BUDGET)
  budget_limit?: number;

  @ApiPropertyOptional({ type: [AcceptanceCriterionDto], maxItems: MAX_LIST })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @ValidateNested({ each: true })
  @Type(() => AcceptanceCriterionDto)
  acceptance_criteria?: AcceptanceCriterionDto[];

  @ApiPropertyOptional({ format: 'date-time', nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(40)
  deadline?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 10, default: 1 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(10)
  max_retries?: number;

  @ApiPropertyOptional({ type: [String], maxItems: MAX_LIST })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsString({ each: true })
  @MaxLength(TASK_LIMITS.nameMax, { each: true })
  reviewers?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: MAX_LIST, description: 'Ids of tasks this one depends on' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_LIST)
  @IsString({ each: true })
  @MaxLength(128, { each: true })
  dependencies?: string[];

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  parent_task_id?: string;
}

@ApiSchema({ name: 'UpdateTaskRequest' })
export class UpdateTaskDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: TASK_LIMITS.titleMax })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.titleMax)
  title?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: TASK_LIMITS.descriptionMax })
  @IsOptionalNonNull()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.descriptionMax)
  description?: string;

  @ApiPropertyOptional({ enum: TASK_PRIORITIES })
  @IsOptionalNonNull()
  @IsIn(TASK_PRIORITIES)
  priority?: TaskPriority;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: TASK_LIMITS.nameMax,
    description:
      'Reassign (agent name or id), or null to unassign; either must keep the assignment invariant (a created ' +
      'task has no assignee; assigned to completed need one)',
    nullable: true,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.nameMax)
  assigned_to?: string | null;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptionalNonNull()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_BUDGET)
  budget_limit?: number;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    nullable: true,
    description: 'Compare-and-set: 409 (4003) when the task has moved on; absent or null: no comparison',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  expected_version?: number | null;
}

@ApiSchema({ name: 'TransitionTaskRequest' })
export class TransitionTaskDto {
  @ApiProperty({ enum: TASK_STATUSES })
  @IsIn(TASK_STATUSES)
  target_status!: string;

  @ApiPropertyOptional({
    type: String,
    minLength: 1,
    maxLength: TASK_LIMITS.nameMax,
    nullable: true,
    description: 'Assignee set by the move; null clears it (where the target status allows none)',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.nameMax)
  assigned_to?: string | null;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    nullable: true,
    description: 'Compare-and-set: 409 (4003) when the task has moved on; absent or null: no comparison',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  expected_version?: number | null;
}

@ApiSchema({ name: 'CancelTaskRequest' })
export class CancelTaskDto {
  @ApiProperty({ minLength: 1, maxLength: TASK_LIMITS.reasonMax })
  @IsString()
  @MinLength(1)
  @MaxLength(TASK_LIMITS.reasonMax)
  reason!: string;
}

export class TaskQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    enum: TASK_STATUSES,
    default: 'created',
    description: 'Omitted: created. Empty (or `null`): every status.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(32)
  status?: string;

  @ApiPropertyOptional({ maxLength: TASK_LIMITS.filterMax, description: 'Assignee name or id' })
  @IsOptional()
  @IsString()
  @MaxLength(TASK_LIMITS.filterMax)
  assigned_to?: string;

  @ApiPropertyOptional({ maxLength: TASK_LIMITS.filterMax, description: 'Project id' })
  @IsOptional()
  @IsString()
  @MaxLength(TASK_LIMITS.filterMax)
  project?: string;
}

@ApiSchema({ name: 'AcceptanceCriterion' })
export class AcceptanceCriterionResponseDto {
  @ApiProperty()
  description!: string;

  @ApiProperty()
  met!: boolean;
}

@ApiSchema({ name: 'Task' })
export class TaskDto {
  @ApiProperty({ example: 'task-0123456789abcdef0123456789abcdef' })
  id!: string;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ enum: TASK_TYPES })
  type!: string;

  @ApiProperty({ enum: TASK_PRIORITIES })
  priority!: string;

  @ApiProperty({ description: 'Project id' })
  project!: string;

  @ApiProperty()
  created_by!: string;

  @ApiProperty({ type: String, nullable: true })
  assigned_to!: string | null;

  @ApiProperty({ type: [String] })
  reviewers!: string[];

  @ApiProperty({ type: [String] })
  dependencies!: string[];

  @ApiProperty({ type: 'array', items: { type: 'object' } })
  artifacts_expected!: unknown[];

  @ApiProperty({ type: [AcceptanceCriterionResponseDto] })
  acceptance_criteria!: AcceptanceCriterionResponseDto[];

  @ApiProperty({ enum: TASK_COMPLEXITIES })
  estimated_complexity!: string;

  @ApiProperty()
  budget_limit!: number;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  deadline!: string | null;

  @ApiProperty()
  max_retries!: number;

  @ApiProperty()
  retry_count!: number;

  @ApiProperty({ enum: TASK_STATUSES })
  status!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Cancel reason, or why the last run stopped' })
  status_reason!: string | null;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The agent's final answer of the completing run, after the security output scan",
  })
  result!: string | null;

  @ApiProperty({ description: 'The output scan withheld the final answer (`result` says so)' })
  output_withheld!: boolean;

  @ApiProperty({ type: String, nullable: true })
  parent_task_id!: string | null;

  @ApiProperty({ type: [String] })
  delegation_chain!: string[];

  @ApiProperty({ type: String, nullable: true })
  task_structure!: string | null;

  @ApiProperty()
  coordination_topology!: string;

  @ApiProperty({ description: 'Optimistic-concurrency version: 1 on create, +1 per write' })
  version!: number;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  started_at!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  completed_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
