import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsObject, IsOptional, IsString, MaxLength } from 'class-validator';

import { MEETING_LIMITS, MEETING_PHASES, MEETING_PROTOCOLS, MEETING_STATUSES, TASK_PRIORITIES } from '@app/domain';
import { PageQueryDto } from '@app/platform';

/** `GET /meetings`: the page and the filters. */
export class MeetingQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: MEETING_STATUSES, nullable: true })
  @IsOptional()
  @IsIn(MEETING_STATUSES)
  status?: string;

  @ApiPropertyOptional({ maxLength: MEETING_LIMITS.maxNameChars, description: 'Exact meeting type name.' })
  @IsOptional()
  @IsString()
  @MaxLength(MEETING_LIMITS.maxNameChars)
  meeting_type?: string;
}

/** The body of `POST /meetings/trigger`. */
@ApiSchema({ name: 'TriggerMeetingRequest' })
export class TriggerMeetingDto {
  @ApiProperty({
    minLength: 1,
    maxLength: MEETING_LIMITS.maxNameChars,
    description: 'Matched against each type’s `trigger`.',
  })
  @IsString()
  @MaxLength(MEETING_LIMITS.maxNameChars)
  event_name!: string;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    description:
      `String or string-list values: at most ${MEETING_LIMITS.maxContextKeys} keys of at most ` +
      `${MEETING_LIMITS.maxContextKeyChars} characters, strings of at most ${MEETING_LIMITS.maxContextValueChars}, ` +
      `lists of at most ${MEETING_LIMITS.maxContextListItems} items (else 400, 2090). A key named by a type's ` +
      'participants names agents; `agenda` gives the agenda items.',
    default: {},
  })
  @IsOptional()
  @IsObject()
  context?: Record<string, string | string[]>;
}

@ApiSchema({ name: 'MeetingAgendaItem' })
export class MeetingAgendaItemDto {
  @ApiProperty()
  title!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ nullable: true, type: String })
  presenter_id!: string | null;
}

@ApiSchema({ name: 'MeetingAgenda' })
export class MeetingAgendaDto {
  @ApiProperty()
  title!: string;

  @ApiProperty()
  context!: string;

  @ApiProperty({ type: [MeetingAgendaItemDto] })
  items!: MeetingAgendaItemDto[];
}

@ApiSchema({ name: 'MeetingContribution' })
export class MeetingContributionDto {
  @ApiProperty()
  agent_id!: string;

  @ApiProperty()
  content!: string;

  @ApiProperty({ enum: MEETING_PHASES })
  phase!: string;

  @ApiProperty({ type: 'integer' })
  turn_number!: number;

  @ApiProperty({ type: 'integer' })
  input_tokens!: number;

  @ApiProperty({ type: 'integer' })
  output_tokens!: number;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;
}

@ApiSchema({ name: 'MeetingActionItem' })
export class MeetingActionItemDto {
  @ApiProperty()
  description!: string;

  @ApiProperty({ nullable: true, type: String })
  assignee_id!: string | null;

  @ApiProperty({ enum: TASK_PRIORITIES })
  priority!: string;
}

@ApiSchema({ name: 'MeetingMinutes' })
export class MeetingMinutesDto {
  @ApiProperty()
  meeting_id!: string;

  @ApiProperty({ enum: MEETING_PROTOCOLS })
  protocol_type!: string;

  @ApiProperty()
  leader_id!: string;

  @ApiProperty({ type: [String] })
  participant_ids!: string[];

  @ApiProperty({ type: MeetingAgendaDto })
  agenda!: MeetingAgendaDto;

  @ApiProperty({ type: [MeetingContributionDto] })
  contributions!: MeetingContributionDto[];

  @ApiProperty()
  summary!: string;

  @ApiProperty({ type: [String] })
  decisions!: string[];

  @ApiProperty({ type: [MeetingActionItemDto] })
  action_items!: MeetingActionItemDto[];

  @ApiProperty()
  conflicts_detected!: boolean;

  @ApiProperty({ type: 'integer' })
  total_input_tokens!: number;

  @ApiProperty({ type: 'integer' })
  total_output_tokens!: number;

  @ApiProperty({ format: 'date-time' })
  started_at!: string;

  @ApiProperty({ format: 'date-time' })
  ended_at!: string;
}

/** A meeting record with the figures derived from its minutes. */
@ApiSchema({ name: 'MeetingResponse' })
export class MeetingResponseDto {
  @ApiProperty()
  meeting_id!: string;

  @ApiProperty()
  meeting_type_name!: string;

  @ApiProperty({ enum: MEETING_PROTOCOLS })
  protocol_type!: string;

  @ApiProperty({ enum: MEETING_STATUSES })
  status!: string;

  @ApiProperty({ type: MeetingMinutesDto, nullable: true, description: 'Present exactly when completed.' })
  minutes!: MeetingMinutesDto | null;

  @ApiProperty({ nullable: true, type: String, description: 'Present exactly when failed or budget_exhausted.' })
  error_message!: string | null;

  @ApiProperty({ type: 'integer', description: 'The meeting’s token budget (`duration_tokens`).' })
  token_budget!: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'integer' },
    description: 'Participant id -> input plus output tokens.',
  })
  token_usage_by_participant!: Record<string, number>;

  @ApiProperty({ type: [String], description: 'Participant ids by total tokens, most first.' })
  contribution_rank!: string[];

  @ApiProperty({ nullable: true, type: Number, description: 'Ended minus started; null without minutes.' })
  meeting_duration_seconds!: number | null;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'Participant id -> name.' })
  participant_names!: Record<string, string>;
}
