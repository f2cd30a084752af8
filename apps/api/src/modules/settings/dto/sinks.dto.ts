import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength } from 'class-validator';

import { SETTING_VALUE_MAX_LENGTH } from '@app/domain';

@ApiSchema({ name: 'SinkRotation' })
export class SinkRotationDto {
  @ApiProperty({ enum: ['builtin', 'external'] })
  strategy!: string;

  @ApiProperty({ type: 'integer' })
  max_bytes!: number;

  @ApiProperty({ type: 'integer' })
  backup_count!: number;

  @ApiProperty()
  compress_rotated!: boolean;
}

@ApiSchema({ name: 'SinkInfo', description: 'A log sink as this replica runs it' })
export class SinkInfoDto {
  @ApiProperty({ description: '__console__, a default file name, a custom file path, host:port or URL' })
  identifier!: string;

  @ApiProperty({ enum: ['console', 'file', 'syslog', 'http'] })
  sink_type!: string;

  @ApiProperty({ enum: ['DEBUG', 'INFO', 'WARNING', 'ERROR', 'CRITICAL'] })
  level!: string;

  @ApiProperty()
  json_format!: boolean;

  @ApiProperty({ type: SinkRotationDto, nullable: true })
  rotation!: SinkRotationDto | null;

  @ApiProperty()
  is_default!: boolean;

  @ApiProperty()
  enabled!: boolean;

  @ApiProperty({ type: [String] })
  routing_prefixes!: string[];
}

@ApiSchema({
  name: 'TestSinkConfigRequest',
  description: 'Candidate sink settings as JSON text; absent: the running value',
})
export class TestSinksDto {
  @ApiProperty({ required: false, maxLength: SETTING_VALUE_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(SETTING_VALUE_MAX_LENGTH)
  sink_overrides?: string;

  @ApiProperty({ required: false, maxLength: SETTING_VALUE_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MaxLength(SETTING_VALUE_MAX_LENGTH)
  custom_sinks?: string;
}

@ApiSchema({ name: 'TestSinkConfigResult' })
export class TestSinksResultDto {
  @ApiProperty()
  valid!: boolean;

  @ApiProperty({ type: 'string', nullable: true, description: 'The broken rule, naming the field' })
  error!: string | null;
}
