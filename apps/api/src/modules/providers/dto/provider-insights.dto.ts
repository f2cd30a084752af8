import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

import { MODEL_ID_MAX_LENGTH } from '@app/domain';

/** Body of POST /providers/{name}/test. */
@ApiSchema({ name: 'TestConnectionRequest' })
export class TestProviderDto {
  @ApiPropertyOptional({
    maxLength: MODEL_ID_MAX_LENGTH,
    description: 'Model id or alias; defaults to the first model',
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(MODEL_ID_MAX_LENGTH)
  model?: string;
}

/** Outcome of a probe call. */
@ApiSchema({ name: 'TestConnectionResponse' })
export class TestResultDto {
  @ApiProperty()
  success!: boolean;

  @ApiProperty({ type: 'integer', nullable: true })
  latency_ms!: number | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Set exactly when success is false' })
  error!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The 7xxx code of the failure' })
  error_code!: number | null;

  @ApiProperty({ type: 'string', nullable: true })
  model_tested!: string | null;
}

/** A provider's health over the last 24 hours of calls. */
@ApiSchema({ name: 'ProviderHealthResponse' })
export class ProviderHealthDto {
  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  last_check_timestamp!: string | null;

  @ApiProperty({ type: 'number', nullable: true })
  avg_response_time_ms!: number | null;

  @ApiProperty()
  error_rate_percent_24h!: number;

  @ApiProperty({ type: 'integer' })
  calls_last_24h!: number;

  @ApiProperty({ enum: ['up', 'degraded', 'down', 'unknown'] })
  health_status!: string;

  @ApiProperty({ type: 'integer' })
  total_tokens_24h!: number;

  @ApiProperty()
  total_cost_24h!: number;
}
