import { ApiProperty, ApiSchema } from '@nestjs/swagger';

import { personalityJsonSchema } from '@app/domain';
import { namedSchema } from '@app/platform';

/** Personality fields, each optional (a preset's replacement, an agent's edit): a reference to the one schema. */
export const PERSONALITY_UPDATE_BODY = namedSchema('UpdatePersonalityPresetRequest', {
  type: 'object',
  additionalProperties: false,
  properties: (personalityJsonSchema() as { properties: Record<string, object> }).properties,
});

@ApiSchema({ name: 'PersonalityPresetSummaryResponse' })
export class PersonalityPresetSummaryDto {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: [String] })
  traits!: string[];

  @ApiProperty({ enum: ['builtin', 'custom'] })
  source!: 'builtin' | 'custom';
}

/** A preset: its name and source plus every PersonalityConfig field (see /personalities/schema). */
@ApiSchema({ name: 'PersonalityPresetResponse' })
export class PersonalityPresetDto extends PersonalityPresetSummaryDto {
  @ApiProperty()
  communication_style!: string;

  @ApiProperty({ enum: ['low', 'medium', 'high'] })
  risk_tolerance!: string;

  @ApiProperty({ enum: ['low', 'medium', 'high'] })
  creativity!: string;

  @ApiProperty({ minimum: 0, maximum: 1 })
  openness!: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  conscientiousness!: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  extraversion!: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  agreeableness!: number;

  @ApiProperty({ minimum: 0, maximum: 1 })
  stress_response!: number;

  @ApiProperty({ enum: ['analytical', 'intuitive', 'consultative', 'directive'] })
  decision_making!: string;

  @ApiProperty({ enum: ['independent', 'pair', 'team'] })
  collaboration!: string;

  @ApiProperty({ enum: ['terse', 'balanced', 'verbose'] })
  verbosity!: string;

  @ApiProperty({ enum: ['avoid', 'accommodate', 'compete', 'compromise', 'collaborate'] })
  conflict_approach!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  created_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  updated_at!: string | null;
}
