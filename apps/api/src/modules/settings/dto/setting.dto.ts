import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';

import {
  SETTING_LEVELS,
  SETTING_NAMESPACES,
  SETTING_SOURCES,
  SETTING_TYPES,
  SETTING_VALUE_MAX_LENGTH,
} from '@app/domain';

@ApiSchema({ name: 'SettingDefinition', description: 'One runtime-editable setting: type, default and rules' })
export class SettingDefinitionDto {
  @ApiProperty({ enum: SETTING_NAMESPACES })
  namespace!: string;

  @ApiProperty()
  key!: string;

  @ApiProperty({ enum: SETTING_TYPES })
  type!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'Code default, as text' })
  default!: string | null;

  @ApiProperty()
  description!: string;

  @ApiProperty()
  group!: string;

  @ApiProperty({ enum: SETTING_LEVELS })
  level!: string;

  @ApiProperty({ description: 'Encrypted at rest; its value is masked in every read' })
  sensitive!: boolean;

  @ApiProperty({ description: 'Read at startup: a change takes effect at the next restart' })
  restart_required!: boolean;

  @ApiProperty({ type: [String] })
  enum_values!: string[];

  @ApiProperty({ type: 'string', nullable: true })
  validator_pattern!: string | null;

  @ApiProperty({ type: 'number', nullable: true })
  min_value!: number | null;

  @ApiProperty({ type: 'number', nullable: true })
  max_value!: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Dotted path of the value in the YAML file' })
  yaml_path!: string | null;
}

@ApiSchema({ name: 'SettingEntry', description: 'A setting with its current value and where the value came from' })
export class SettingEntryDto {
  @ApiProperty({ type: SettingDefinitionDto })
  definition!: SettingDefinitionDto;

  @ApiProperty({ description: 'Always text; empty when no source gives a value; masked when sensitive' })
  value!: string;

  @ApiProperty({ enum: SETTING_SOURCES })
  source!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true, description: 'When the stored value changed' })
  updated_at!: string | null;

  @ApiProperty({ description: 'A restart-required value that is stored but not running yet (applies at restart)' })
  pending_restart!: boolean;
}

@ApiSchema({ name: 'UpdateSettingRequest' })
export class UpdateSettingDto {
  @ApiProperty({ maxLength: SETTING_VALUE_MAX_LENGTH, description: 'The new value as text' })
  @IsString()
  @MaxLength(SETTING_VALUE_MAX_LENGTH)
  value!: string;
}
