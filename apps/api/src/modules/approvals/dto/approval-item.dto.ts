import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, MaxLength, Min } from 'class-validator';

import {
  ACTION_TYPE_PATTERN,
  APPROVAL_LIMITS,
  APPROVAL_STATUSES,
  type ApprovalStatus,
  RISK_LEVELS,
  type RiskLevel,
  URGENCY_LEVELS,
  type UrgencyLevel,
} from '@app/domain';
import { PageQueryDto } from '@app/platform';

const L = APPROVAL_LIMITS;

/** The body that files an approval item. */
@ApiSchema({ name: 'CreateApprovalRequest' })
export class CreateApprovalDto {
  @ApiProperty({ description: '`category:action`', maxLength: L.actionType, example: 'deploy:staging' })
  @IsString()
  @Length(3, L.actionType)
  @Matches(ACTION_TYPE_PATTERN, { message: 'action_type must be category:action' })
  action_type!: string;

  @ApiProperty({ minLength: 1, maxLength: L.title })
  @IsString()
  @Length(1, L.title)
  title!: string;

  @ApiProperty({ maxLength: L.description })
  @IsString()
  @MaxLength(L.description)
  description!: string;

  @ApiProperty({ enum: RISK_LEVELS })
  @IsIn(RISK_LEVELS)
  risk_level!: RiskLevel;

  @ApiPropertyOptional({ type: 'integer', minimum: L.minTtlSeconds, maximum: L.maxTtlSeconds, nullable: true })
  @IsOptional()
  @IsInt()
  @Min(L.minTtlSeconds)
  @Max(L.maxTtlSeconds)
  ttl_seconds?: number | null;

  @ApiPropertyOptional({ type: String, minLength: 1, maxLength: L.taskId, nullable: true })
  @IsOptional()
  @IsString()
  @Length(1, L.taskId)
  task_id?: string | null;

  @ApiPropertyOptional({
    description: `String map; at most ${L.metadataKeys} keys, keys and values at most ${L.metadataText} characters`,
    type: 'object',
    additionalProperties: { type: 'string', maxLength: L.metadataText },
    maxProperties: L.metadataKeys,
  })
  @IsOptional()
  @IsObject()
  metadata?: Record<string, string>;
}

/** The body of an approval. */
@ApiSchema({ name: 'ApproveRequest' })
export class ApproveDto {
  @ApiPropertyOptional({ type: String, maxLength: L.comment, nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(L.comment)
  comment?: string | null;
}

/** The body of a rejection: the reason is required. */
@ApiSchema({ name: 'RejectRequest' })
export class RejectDto {
  @ApiProperty({ minLength: 1, maxLength: L.comment })
  @IsString()
  @Length(1, L.comment)
  reason!: string;
}

/** The list's filters and page. */
export class ApprovalQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: APPROVAL_STATUSES })
  @IsOptional()
  @IsIn(APPROVAL_STATUSES)
  status?: ApprovalStatus;

  @ApiPropertyOptional({ enum: RISK_LEVELS })
  @IsOptional()
  @IsIn(RISK_LEVELS)
  risk_level?: RiskLevel;

  @ApiPropertyOptional({ maxLength: L.actionType })
  @IsOptional()
  @IsString()
  @Length(1, L.actionType)
  action_type?: string;
}

/** An approval item as the API answers it, with its urgency. */
@ApiSchema({ name: 'ApprovalResponse' })
export class ApprovalResponseDto {
  @ApiProperty({ minLength: 1, maxLength: 64 })
  id!: string;

  @ApiProperty({ maxLength: L.actionType })
  action_type!: string;

  @ApiProperty({ maxLength: L.title })
  title!: string;

  @ApiProperty({ maxLength: L.description })
  description!: string;

  @ApiProperty({ description: 'The requesting agent id, username, or "system"' })
  requested_by!: string;

  @ApiProperty({ enum: RISK_LEVELS })
  risk_level!: RiskLevel;

  @ApiProperty({ enum: APPROVAL_STATUSES })
  status!: ApprovalStatus;

  @ApiProperty({ type: String, nullable: true })
  task_id!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  metadata!: Record<string, string>;

  @ApiProperty({ type: String, nullable: true })
  decided_by!: string | null;

  @ApiProperty({ type: String, nullable: true })
  decision_reason!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  decided_at!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  expires_at!: string | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Seconds until expires_at, 0 once past; null: no TTL' })
  seconds_remaining!: number | null;

  @ApiProperty({ enum: URGENCY_LEVELS })
  urgency_level!: UrgencyLevel;
}
