import { ApiProperty, ApiPropertyOptional, ApiSchema, PickType } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

import {
  AUTH_TYPES,
  type AuthType,
  DEGRADATION_STRATEGIES,
  MAX_MODELS_PER_PROVIDER,
  PROVIDER_PROTOCOLS,
  QUEUE_MAX_WAIT_SECONDS_MAX,
  QUEUE_MAX_WAIT_SECONDS_MIN,
} from '@app/domain';

import { ModelEntryDto, ModelEntryResponseDto } from './model.dto';

const NAME_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}[a-z0-9]$/;
const SECRET_MAX = 8192;
/** How every secret field of a provider reads (the shared secret-input rules). */
const SECRET_DOC = 'Write-only; null or "********" keeps it; a new base_url or oauth_token_url needs it again (2028)';

/** What happens when the provider fails or runs out of quota. */
@ApiSchema({ name: 'Degradation' })
export class DegradationDto {
  @ApiPropertyOptional({ enum: DEGRADATION_STRATEGIES, default: 'alert' })
  @IsOptional()
  @IsIn(DEGRADATION_STRATEGIES)
  strategy?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 20, default: [] })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(20)
  @IsString({ each: true })
  @Matches(NAME_PATTERN, { each: true })
  fallback_providers?: string[];

  @ApiPropertyOptional({
    type: 'integer',
    minimum: QUEUE_MAX_WAIT_SECONDS_MIN,
    maximum: QUEUE_MAX_WAIT_SECONDS_MAX,
    default: 300,
  })
  @IsOptional()
  @IsInt()
  @Min(QUEUE_MAX_WAIT_SECONDS_MIN)
  @Max(QUEUE_MAX_WAIT_SECONDS_MAX)
  queue_max_wait_seconds?: number;
}

/** Usage limits of a provider, per minute, hour and day. */
@ApiSchema({ name: 'Quota' })
export class QuotaDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0 })
  requests_per_minute?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0 })
  requests_per_hour?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0 })
  requests_per_day?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0 })
  tokens_per_minute?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0 })
  tokens_per_hour?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0 })
  tokens_per_day?: number | null;
}

/** Fields shared by create and update (all optional here; create adds the name). */
export class ProviderFieldsDto {
  @ApiPropertyOptional({ maxLength: 64, description: 'Routing identifier; falls back to the provider name' })
  @IsOptional()
  @IsString()
  @Matches(/^[a-z0-9][a-z0-9_.-]{0,63}$/)
  gateway_provider?: string;

  @ApiPropertyOptional({ maxLength: 100, description: 'Optional grouping for cross-validation' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(100)
  family?: string;

  @ApiPropertyOptional({ enum: AUTH_TYPES, default: 'api_key' })
  @IsOptional()
  @IsIn(AUTH_TYPES)
  auth_type?: AuthType;

  @ApiPropertyOptional({ writeOnly: true, maxLength: SECRET_MAX, description: SECRET_DOC })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(SECRET_MAX)
  api_key?: string;

  @ApiPropertyOptional({
    writeOnly: true,
    maxLength: SECRET_MAX,
    description: `Used as the api key; needs tos_accepted. ${SECRET_DOC}`,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(SECRET_MAX)
  subscription_token?: string;

  @ApiPropertyOptional({ description: 'Accept the subscription terms; stamps tos_accepted_at' })
  @IsOptional()
  @IsBoolean()
  tos_accepted?: boolean;

  @ApiPropertyOptional({ maxLength: 512, format: 'uri' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  base_url?: string;

  @ApiPropertyOptional({
    description: 'CEO: allowlist a refused base_url or oauth_token_url host:port in this request (audited); else 2014',
  })
  @IsOptional()
  @IsBoolean()
  trust_address?: boolean;

  @ApiPropertyOptional({ maxLength: 512, format: 'uri' })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  oauth_token_url?: string;

  @ApiPropertyOptional({ maxLength: 256 })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  oauth_client_id?: string;

  @ApiPropertyOptional({ writeOnly: true, maxLength: SECRET_MAX, description: SECRET_DOC })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(SECRET_MAX)
  oauth_client_secret?: string;

  @ApiPropertyOptional({ maxLength: 512 })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  oauth_scope?: string;

  @ApiPropertyOptional({ maxLength: 128, pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]+$" })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,128}$/)
  custom_header_name?: string;

  @ApiPropertyOptional({ writeOnly: true, maxLength: SECRET_MAX, description: SECRET_DOC })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(SECRET_MAX)
  custom_header_value?: string;

  @ApiPropertyOptional({ type: [ModelEntryDto], maxItems: MAX_MODELS_PER_PROVIDER })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(MAX_MODELS_PER_PROVIDER)
  @ValidateNested({ each: true })
  @Type(() => ModelEntryDto)
  models?: ModelEntryDto[];

  @ApiPropertyOptional({ type: DegradationDto })
  @IsOptional()
  @ValidateNested()
  @Type(() => DegradationDto)
  degradation?: DegradationDto;

  @ApiPropertyOptional({ type: QuotaDto })
  @IsOptional()
  @IsObject()
  quota?: Record<string, unknown>;
}

/** Body of POST /providers. */
@ApiSchema({ name: 'CreateProviderRequest' })
export class CreateProviderDto extends ProviderFieldsDto {
  @ApiProperty({ pattern: NAME_PATTERN.source, minLength: 2, maxLength: 64 })
  @IsString()
  @Matches(NAME_PATTERN, { message: 'name must be 2-64 lower-case letters, digits or inner hyphens' })
  name!: string;

  @ApiPropertyOptional({ maxLength: 64, description: 'Preset the provider follows (local-model support, defaults)' })
  @IsOptional()
  @IsString()
  @MaxLength(64)
  preset_name?: string;
}

/** Body of PUT /providers/{name}. */
@ApiSchema({ name: 'UpdateProviderRequest' })
export class UpdateProviderDto extends ProviderFieldsDto {
  @ApiPropertyOptional({ description: 'Remove the stored api key' })
  @IsOptional()
  @IsBoolean()
  clear_api_key?: boolean;

  @ApiPropertyOptional({ description: 'Remove the stored subscription token' })
  @IsOptional()
  @IsBoolean()
  clear_subscription_token?: boolean;

  @ApiPropertyOptional({ description: 'Remove the stored OAuth client secret' })
  @IsOptional()
  @IsBoolean()
  clear_oauth_client_secret?: boolean;

  @ApiPropertyOptional({ description: 'Remove the stored custom header value' })
  @IsOptional()
  @IsBoolean()
  clear_custom_header_value?: boolean;
}

/** Creation from a preset: the preset supplies the rest (models default to the preset's). */
@ApiSchema({ name: 'CreateFromPresetRequest' })
export class FromPresetDto extends PickType(ProviderFieldsDto, [
  'auth_type',
  'api_key',
  'subscription_token',
  'tos_accepted',
  'base_url',
  'trust_address',
  'models',
] as const) {
  @ApiProperty({ maxLength: 64 })
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  preset_name!: string;

  @ApiProperty({ pattern: NAME_PATTERN.source })
  @IsString()
  @Matches(NAME_PATTERN, { message: 'name must be 2-64 lower-case letters, digits or inner hyphens' })
  name!: string;
}

/** The degradation settings as the API shows them. */
@ApiSchema({ name: 'DegradationResponse' })
export class DegradationResponseDto {
  @ApiProperty({ enum: DEGRADATION_STRATEGIES })
  strategy!: string;

  @ApiProperty({ type: [String] })
  fallback_providers!: string[];

  @ApiProperty({ type: 'integer' })
  queue_max_wait_seconds!: number;
}

/** A provider as the API shows it: never a secret, only whether each one is set. */
@ApiSchema({ name: 'ProviderResponse' })
export class ProviderDto {
  @ApiProperty()
  name!: string;

  @ApiProperty({ enum: PROVIDER_PROTOCOLS, description: 'The wire protocol (driver) used' })
  driver!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'As configured; null falls back to the name' })
  gateway_provider!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  family!: string | null;

  @ApiProperty({ enum: AUTH_TYPES })
  auth_type!: string;

  @ApiProperty({ type: 'string', nullable: true })
  base_url!: string | null;

  @ApiProperty({ type: [ModelEntryResponseDto] })
  models!: ModelEntryResponseDto[];

  @ApiProperty({ type: DegradationResponseDto })
  degradation!: DegradationResponseDto;

  @ApiProperty({ type: QuotaDto })
  quota!: Record<string, number | null>;

  @ApiProperty()
  has_api_key!: boolean;

  @ApiProperty()
  has_oauth_credentials!: boolean;

  @ApiProperty()
  has_custom_header!: boolean;

  @ApiProperty()
  has_subscription_token!: boolean;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  tos_accepted_at!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  oauth_token_url!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  oauth_client_id!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  oauth_scope!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  custom_header_name!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  preset_name!: string | null;

  @ApiProperty()
  supports_model_pull!: boolean;

  @ApiProperty()
  supports_model_delete!: boolean;

  @ApiProperty()
  supports_model_config!: boolean;

  @ApiProperty({ type: 'integer' })
  version!: number;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
