import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsInt, IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

import { ACTIVITY_EVENT_TYPES, ACTIVITY_WINDOWS_HOURS, type ActivityEventType } from '@app/domain';
import { PageQueryDto, QueryInteger } from '@app/platform';

@ApiSchema({ name: 'ActivityEvent' })
export class ActivityEventDto {
  @ApiProperty({ enum: ACTIVITY_EVENT_TYPES })
  event_type!: ActivityEventType;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty({ maxLength: 1024 })
  description!: string;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  related_ids!: Record<string, string>;
}

export class ActivityQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ACTIVITY_EVENT_TYPES, nullable: true })
  @IsOptional()
  @IsIn(ACTIVITY_EVENT_TYPES)
  type?: ActivityEventType;

  @ApiPropertyOptional({ maxLength: 128 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  agent_id?: string;

  @ApiPropertyOptional({ enum: ACTIVITY_WINDOWS_HOURS, default: 24, type: 'integer' })
  @IsOptional()
  @QueryInteger()
  @IsInt()
  @IsIn(ACTIVITY_WINDOWS_HOURS)
  last_n_hours?: number;
}
