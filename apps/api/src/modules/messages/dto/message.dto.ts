import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

import { ATTACHMENT_TYPES, CHANNEL_TYPES, MESSAGE_LIMITS, MESSAGE_PRIORITIES, MESSAGE_TYPES } from '@app/domain';
import { PageQueryDto } from '@app/platform';

/** `GET /messages`: the page and, optionally, one channel. */
export class MessageQueryDto extends PageQueryDto {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: MESSAGE_LIMITS.maxChannelNameChars,
    description: 'Only this channel (an unknown one: 404, 3007); absent or empty: every channel.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(MESSAGE_LIMITS.maxChannelNameChars)
  channel?: string | null;
}

/** A message channel. */
@ApiSchema({ name: 'Channel' })
export class ChannelDto {
  @ApiProperty({ example: '#engineering', maxLength: MESSAGE_LIMITS.maxChannelNameChars })
  name!: string;

  @ApiProperty({ enum: CHANNEL_TYPES, default: 'topic' })
  type!: string;

  @ApiProperty({ type: [String], description: 'Agents subscribed (both sides of a direct channel); empty: everyone.' })
  subscribers!: string[];
}

/** Something a message points at. */
@ApiSchema({ name: 'MessageAttachment' })
export class MessageAttachmentDto {
  @ApiProperty({ enum: ATTACHMENT_TYPES })
  type!: string;

  @ApiProperty({ maxLength: MESSAGE_LIMITS.maxAttachmentRefChars, description: 'An artifact id, a path or a URL.' })
  ref!: string;
}

/** What a message is about and what it cost. */
@ApiSchema({ name: 'MessageMetadata' })
export class MessageMetadataDto {
  @ApiProperty({ type: String, nullable: true })
  task_id!: string | null;

  @ApiProperty({ type: String, nullable: true })
  project_id!: string | null;

  @ApiProperty({ type: Number, nullable: true })
  tokens_used!: number | null;

  @ApiProperty({ type: Number, nullable: true, description: 'Redacted (null) for read-only roles.' })
  cost_usd!: number | null;

  @ApiProperty({
    type: 'array',
    items: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 2 },
    description: '[key, value] pairs.',
  })
  extra!: Array<[string, string]>;
}

/** A message on a channel; the sender is `from`. */
@ApiSchema({ name: 'Message' })
export class MessageDto {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty({ description: 'The sender: an agent name, or `system`.' })
  from!: string;

  @ApiProperty({ description: 'The recipient: an agent name, or the channel.' })
  to!: string;

  @ApiProperty({ enum: MESSAGE_TYPES })
  type!: string;

  @ApiProperty({ enum: MESSAGE_PRIORITIES, default: 'normal' })
  priority!: string;

  @ApiProperty({ maxLength: MESSAGE_LIMITS.maxChannelNameChars })
  channel!: string;

  @ApiProperty({ maxLength: MESSAGE_LIMITS.maxContentChars })
  content!: string;

  @ApiProperty({ type: [MessageAttachmentDto] })
  attachments!: MessageAttachmentDto[];

  @ApiProperty({ type: MessageMetadataDto })
  metadata!: MessageMetadataDto;
}
