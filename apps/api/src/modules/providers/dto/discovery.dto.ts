import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsOptional, IsString, MaxLength, MinLength } from 'class-validator';

/** Query of POST /providers/{name}/discover-models. */
export class DiscoverModelsQueryDto {
  @ApiPropertyOptional({ maxLength: 64, description: 'Protocol to discover with, as a preset name' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(64)
  preset_hint?: string;
}

/** Models found by discovery. */
@ApiSchema({ name: 'DiscoverModelsResponse' })
export class DiscoverModelsResultDto {
  @ApiProperty({ type: [String] })
  discovered_models!: string[];

  @ApiProperty()
  provider_name!: string;
}
