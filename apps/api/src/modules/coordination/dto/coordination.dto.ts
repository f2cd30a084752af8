import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';

import { COORDINATION_LIMITS, COORDINATION_PHASES, COORDINATION_TOPOLOGIES } from '@app/domain';

/** `POST /tasks/{task_id}/coordinate` (engine.md §5 CoordinateTaskRequest). */
@ApiSchema({ name: 'CoordinateTaskRequest' })
export class CoordinateTaskDto {
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    minItems: 1,
    maxItems: COORDINATION_LIMITS.maxAgentNames,
    description: 'Agents that may take subtasks (unique, case-insensitive); null or absent: every active agent.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(COORDINATION_LIMITS.maxAgentNames)
  @IsString({ each: true })
  @Length(1, 256, { each: true })
  agent_names?: string[] | null;

  @ApiPropertyOptional({ minimum: 1, maximum: COORDINATION_LIMITS.maxSubtasks, default: 10 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(COORDINATION_LIMITS.maxSubtasks)
  max_subtasks?: number;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    minimum: 1,
    maximum: COORDINATION_LIMITS.maxConcurrencyPerWave,
    description: 'Subtasks running at once in one wave; null: the coordination.max_concurrency_per_wave setting.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(COORDINATION_LIMITS.maxConcurrencyPerWave)
  max_concurrency_per_wave?: number | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description: 'Stop after the first wave with a failed subtask; null: the coordination.fail_fast setting.',
  })
  @IsOptional()
  @IsBoolean()
  fail_fast?: boolean | null;
}

/** One phase of the pipeline as it went. */
@ApiSchema({ name: 'CoordinationPhaseResult' })
export class CoordinationPhaseResultDto {
  @ApiProperty({ enum: COORDINATION_PHASES })
  phase!: string;

  @ApiProperty()
  success!: boolean;

  @ApiProperty({ minimum: 0 })
  duration_seconds!: number;

  @ApiPropertyOptional({ type: String, description: 'Present exactly when success is false.' })
  error?: string;
}

/** The outcome of a coordination (engine.md §5 CoordinationResultResponse). */
@ApiSchema({ name: 'CoordinationResultResponse' })
export class CoordinationResultDto {
  @ApiProperty()
  parent_task_id!: string;

  @ApiProperty({ enum: COORDINATION_TOPOLOGIES, description: 'The resolved topology.' })
  topology!: string;

  @ApiProperty({ minimum: 0 })
  total_duration_seconds!: number;

  @ApiProperty({ minimum: 0, description: 'Cost of the coordination calls and of the subtasks (configured currency).' })
  total_cost_usd!: number;

  @ApiProperty({ type: [CoordinationPhaseResultDto], minItems: 1 })
  phases!: CoordinationPhaseResultDto[];

  @ApiProperty({ minimum: 0 })
  wave_count!: number;

  @ApiProperty({ description: 'Every phase succeeded.' })
  is_success!: boolean;
}
