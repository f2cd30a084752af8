import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  IsArray,
  IsISO8601,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
} from 'class-validator';

import { PROJECT_STATUSES } from '@app/domain';
import { PageQueryDto } from '@app/platform';

@ApiSchema({ name: 'CreateProjectRequest' })
export class CreateProjectDto {
  @ApiProperty({ minLength: 1, maxLength: 200 })
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name!: string;

  @ApiPropertyOptional({ maxLength: 2000, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(2000)
  description?: string;

  @ApiPropertyOptional({ type: [String], maxItems: 100, description: 'Agent names or ids' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MinLength(1, { each: true })
  @MaxLength(128, { each: true })
  team?: string[];

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 128, description: 'Agent name or id; null: none' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  lead?: string | null;

  @ApiPropertyOptional({ format: 'date', description: 'ISO 8601 date or date-time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  deadline?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 1_000_000_000, default: 0 })
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1_000_000_000)
  budget?: number;
}

export class ProjectQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 128, enum: PROJECT_STATUSES })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  status?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 128, description: 'Lead agent id' })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(128)
  lead?: string;
}

@ApiSchema({ name: 'Project' })
export class ProjectDto {
  @ApiProperty({ example: 'proj-0123456789ab' })
  id!: string;

  @ApiProperty()
  name!: string;

  @ApiProperty()
  description!: string;

  @ApiProperty({ type: [String], description: 'Agent ids' })
  team!: string[];

  @ApiProperty({ type: 'string', nullable: true, description: 'Lead agent id' })
  lead!: string | null;

  @ApiProperty({ type: [String] })
  task_ids!: string[];

  @ApiProperty({ type: 'string', nullable: true })
  deadline!: string | null;

  @ApiProperty({ minimum: 0 })
  budget!: number;

  @ApiProperty({ enum: PROJECT_STATUSES })
  status!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ format: 'date-time' })
  updated_at!: string;
}
