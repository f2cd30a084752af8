import { ApiProperty, ApiSchema } from '@nestjs/swagger';
import { IsString, MaxLength, MinLength } from 'class-validator';

import { AUTH_TYPES, PROVIDER_PROTOCOLS } from '@app/domain';

import { ModelEntryResponseDto } from './model.dto';

@ApiSchema({ name: 'ProviderPresetResponse' })
export class PresetDto {
  @ApiProperty()
  name!: string;

  @ApiProperty()
  display_name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ enum: PROVIDER_PROTOCOLS })
  driver!: string;

  @ApiProperty()
  gateway_provider!: string;

  @ApiProperty({ enum: AUTH_TYPES })
  auth_type!: string;

  @ApiProperty({ enum: AUTH_TYPES, isArray: true })
  supported_auth_types!: string[];

  @ApiProperty({ type: 'string', nullable: true })
  default_base_url!: string | null;

  @ApiProperty()
  requires_base_url!: boolean;

  @ApiProperty({ type: [String] })
  candidate_urls!: string[];

  @ApiProperty({ type: [ModelEntryResponseDto] })
  default_models!: ModelEntryResponseDto[];

  @ApiProperty()
  supports_model_pull!: boolean;

  @ApiProperty()
  supports_model_delete!: boolean;

  @ApiProperty()
  supports_model_config!: boolean;
}

@ApiSchema({ name: 'ProbePresetRequest' })
export class ProbePresetDto {
  @ApiProperty({ maxLength: 64 })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  preset_name!: string;
}

@ApiSchema({ name: 'ProbePresetResponse' })
export class ProbePresetResultDto {
  @ApiProperty({ type: 'string', nullable: true, description: 'First reachable candidate URL' })
  url!: string | null;

  @ApiProperty({ type: 'integer' })
  model_count!: number;

  @ApiProperty({ type: 'integer' })
  candidates_tried!: number;
}

@ApiSchema({ name: 'DiscoveryPolicyResponse' })
export class DiscoveryPolicyDto {
  @ApiProperty({ type: [String] })
  host_port_allowlist!: string[];

  @ApiProperty()
  block_private_ips!: boolean;

  @ApiProperty({ type: 'integer' })
  entry_count!: number;
}

@ApiSchema({ name: 'DiscoveryPolicyEntryRequest' })
export class HostPortDto {
  @ApiProperty({ maxLength: 262, example: 'localhost:11434' })
  @IsString()
  @MinLength(3)
  @MaxLength(262)
  host_port!: string;
}
