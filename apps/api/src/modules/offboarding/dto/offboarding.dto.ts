import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, MaxLength } from 'class-validator';

import { FIRING_REASONS, OFFBOARDING_LIMITS } from '@app/domain';

/** A person fires an agent: why, and in their own words. */
@ApiSchema({ name: 'FireAgentRequest' })
export class FireAgentDto {
  @ApiProperty({ enum: FIRING_REASONS })
  @IsIn(FIRING_REASONS)
  reason!: string;

  @ApiPropertyOptional({ maxLength: OFFBOARDING_LIMITS.detailsMax })
  @IsOptional()
  @IsString()
  @MaxLength(OFFBOARDING_LIMITS.detailsMax)
  details?: string;
}

/** One step of the offboarding pipeline. */
@ApiSchema({ name: 'OffboardingStep' })
export class OffboardingStepDto {
  /** One of OFFBOARDING_STEPS, listed in order (docs/workforce.md). */
  @ApiProperty()
  name!: string;

  /** skipped: what the step needs does not exist (memory_archived: no memory backend). */
  @ApiProperty({ enum: ['pending', 'done', 'skipped'] })
  state!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  completed_at!: string | null;

  /** What the step did or why it was skipped (empty while pending). */
  @ApiProperty()
  detail!: string;
}

/** A fired agent's offboarding: the firing request and each step (engine.md §13 OffboardingRecord). */
@ApiSchema({ name: 'OffboardingRecord' })
export class OffboardingRecordDto {
  @ApiProperty()
  firing_request_id!: string;

  @ApiProperty()
  agent_id!: string;

  @ApiProperty()
  agent_name!: string;

  @ApiProperty({ enum: FIRING_REASONS })
  reason!: string;

  @ApiProperty()
  details!: string;

  /** Who fired it. */
  @ApiProperty()
  requested_by!: string;

  @ApiProperty({ type: [OffboardingStepDto] })
  steps!: OffboardingStepDto[];

  @ApiProperty({ type: [String] })
  tasks_reassigned!: string[];

  @ApiProperty({ nullable: true, type: String })
  memory_archive_id!: string | null;

  @ApiProperty({ type: 'integer' })
  org_memories_promoted!: number;

  @ApiProperty()
  team_notification_sent!: boolean;

  @ApiProperty({ format: 'date-time' })
  started_at!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  completed_at!: string | null;
}
