import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { SENIORITY_LEVELS } from '@app/domain';

/** One criterion of the evaluation, read from the performance summary. */
@ApiSchema({ name: 'LevelCriterion' })
export class LevelCriterionDto {
  @ApiProperty({ enum: ['promotion', 'demotion'] })
  direction!: string;

  @ApiProperty({ enum: ['quality_score', 'success_rate', 'tasks_completed'] })
  name!: string;

  @ApiProperty({ enum: ['>=', '<'] })
  comparison!: string;

  /** Null without enough data points. */
  @ApiProperty({ type: Number, nullable: true })
  value!: number | null;

  @ApiProperty()
  threshold!: number;

  @ApiProperty()
  met!: boolean;
}

/** What an evaluation found and did. */
@ApiSchema({ name: 'LevelEvaluation' })
export class LevelEvaluationDto {
  @ApiProperty()
  agent_name!: string;

  /** The level before the evaluation. */
  @ApiProperty({ enum: SENIORITY_LEVELS })
  level!: string;

  @ApiProperty({
    enum: ['promoted', 'demoted', 'pending_approval', 'no_change'],
    description: 'pending_approval: a person decides (see approval_id)',
  })
  decision!: string;

  @ApiProperty({ enum: SENIORITY_LEVELS, nullable: true, type: String })
  to_level!: string | null;

  @ApiProperty()
  reason!: string;

  @ApiProperty({ type: [LevelCriterionDto] })
  criteria!: LevelCriterionDto[];

  @ApiProperty({ type: 'integer' })
  promotion_criteria_met!: number;

  @ApiProperty({ type: 'integer' })
  demotion_criteria_met!: number;

  @ApiProperty({ type: 'integer' })
  min_criteria_met!: number;

  /** The `org:promote` item a person decides, when one waits. */
  @ApiProperty({ type: String, nullable: true })
  approval_id!: string | null;

  @ApiProperty({ format: 'date-time' })
  evaluated_at!: string;
}
