import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

import { MODEL_ID_MAX_LENGTH } from '@app/domain';

const MAX_COST = 1_000_000;

/** Launch parameters of a local model (null leaves the runtime default). */
@ApiSchema({ name: 'LocalModelParams' })
export class LocalModelParamsDto {
  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 128, maximum: 1_048_576 })
  num_ctx?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0, maximum: 1024 })
  num_gpu_layers?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: 1024 })
  num_threads?: number | null;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 1, maximum: 65_536 })
  num_batch?: number | null;

  @ApiPropertyOptional({ type: 'number', nullable: true, minimum: 0, maximum: 5 })
  repeat_penalty?: number | null;
}

/** A model as a provider write declares it. */
@ApiSchema({ name: 'ModelEntry' })
export class ModelEntryDto {
  @ApiProperty({ minLength: 1, maxLength: MODEL_ID_MAX_LENGTH })
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_ID_MAX_LENGTH)
  id!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true, maxLength: MODEL_ID_MAX_LENGTH })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_ID_MAX_LENGTH)
  alias?: string | null;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_COST)
  cost_per_1k_input?: number;

  @ApiPropertyOptional({ minimum: 0, default: 0 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(MAX_COST)
  cost_per_1k_output?: number;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 8192 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100_000_000)
  max_context?: number;

  @ApiPropertyOptional({ type: 'integer', nullable: true, minimum: 0 })
  @IsOptional()
  @IsInt()
  @Min(0)
  @Max(3_600_000)
  estimated_latency_ms?: number | null;

  @ApiPropertyOptional({ type: LocalModelParamsDto, nullable: true })
  @IsOptional()
  @IsObject()
  local_params?: Record<string, unknown> | null;
}

/** A model as the API shows it. */
@ApiSchema({ name: 'ModelEntryResponse' })
export class ModelEntryResponseDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ type: 'string', nullable: true })
  alias!: string | null;

  @ApiProperty()
  cost_per_1k_input!: number;

  @ApiProperty()
  cost_per_1k_output!: number;

  @ApiProperty({ type: 'integer' })
  max_context!: number;

  @ApiProperty({ type: 'integer', nullable: true })
  estimated_latency_ms!: number | null;

  @ApiProperty({ type: LocalModelParamsDto, nullable: true })
  local_params!: Record<string, number | null> | null;
}

/** A model with the capability flags its driver reports. */
@ApiSchema({ name: 'ProviderModelResponse' })
export class ProviderModelDto extends ModelEntryResponseDto {
  @ApiProperty()
  supports_tools!: boolean;

  @ApiProperty()
  supports_vision!: boolean;

  @ApiProperty()
  supports_streaming!: boolean;
}

/** Body of PUT /providers/{name}/models/{model_id}/config. */
@ApiSchema({ name: 'UpdateModelConfigRequest' })
export class LocalModelConfigDto {
  @ApiProperty({ type: LocalModelParamsDto })
  @IsObject()
  local_params!: Record<string, unknown>;
}

/** Body of POST /providers/{name}/models/pull. */
@ApiSchema({ name: 'PullModelRequest' })
export class PullModelDto {
  @ApiProperty({ maxLength: 256, pattern: '^[a-zA-Z0-9._:/@-]+$' })
  @IsString()
  @MinLength(1)
  @MaxLength(256)
  @Matches(/^[a-zA-Z0-9._:/@-]+$/, { message: 'model_name may contain letters, digits and . _ : / @ - only' })
  model_name!: string;
}
