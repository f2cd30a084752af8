import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { TOOL_ACCESS_LEVELS, TRUST_STRATEGIES } from '@app/domain';

/** One recorded trust change: a promotion or demotion, a promotion waiting or refused, a re-verification. */
@ApiSchema({ name: 'TrustChange' })
export class TrustChangeDto {
  @ApiProperty({ enum: TOOL_ACCESS_LEVELS })
  from_level!: string;

  @ApiProperty({ enum: TOOL_ACCESS_LEVELS })
  to_level!: string;

  @ApiProperty({ enum: ['applied', 'pending', 'rejected', 'verified'] })
  outcome!: string;

  @ApiProperty({ maxLength: 1024 })
  reason!: string;

  @ApiProperty({ description: 'system, or the person who decided the approval' })
  actor!: string;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;
}

/** An agent's progressive trust: its tool access level, the strategy, a promotion waiting, the changes. */
@ApiSchema({ name: 'AgentTrust' })
export class AgentTrustDto {
  @ApiProperty()
  agent_id!: string;

  @ApiProperty()
  agent_name!: string;

  @ApiProperty({ enum: TRUST_STRATEGIES, description: 'security.trust_strategy' })
  strategy!: string;

  @ApiProperty({ enum: TOOL_ACCESS_LEVELS, description: "The agent's tool access level in force" })
  access_level!: string;

  @ApiProperty({ type: Number, nullable: true, description: "The weighted strategy's last score (0–1)" })
  trust_score!: number | null;

  @ApiProperty({ enum: TOOL_ACCESS_LEVELS, nullable: true, description: 'A promotion waiting for a person' })
  pending_level!: string | null;

  @ApiProperty({ type: String, nullable: true, description: 'The approval item the promotion waits on' })
  pending_approval_id!: string | null;

  @ApiProperty({ type: String, nullable: true, format: 'date-time' })
  last_changed_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  last_verified_at!: string;

  @ApiProperty({ type: String, nullable: true, format: 'date-time', description: 'null: never evaluated' })
  evaluated_at!: string | null;

  @ApiProperty({ type: [TrustChangeDto], description: 'The latest changes, newest first (at most 50)' })
  changes!: TrustChangeDto[];
}
