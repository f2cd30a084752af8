import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Length, MaxLength } from 'class-validator';

import { ARTIFACT_LIMITS, ARTIFACT_TYPES } from '@app/domain';
import { PageQueryDto } from '@app/platform';

const ID = ARTIFACT_LIMITS.maxIdChars;

/** `GET /artifacts`: the page and the filters (each 1 to 128 characters). */
export class ArtifactQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: ID })
  @IsOptional()
  @IsString()
  @Length(1, ID)
  task_id?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: ID, description: 'The agent that made it.' })
  @IsOptional()
  @IsString()
  @Length(1, ID)
  created_by?: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: ID,
    description: `One of ${ARTIFACT_TYPES.join(', ')} (else 400, 2067).`,
  })
  @IsOptional()
  @IsString()
  @Length(1, ID)
  type?: string;
}

/** The body that records an artifact (its content is uploaded separately). */
@ApiSchema({ name: 'CreateArtifactRequest' })
export class CreateArtifactDto {
  @ApiProperty({ enum: ARTIFACT_TYPES })
  @IsString()
  @IsIn(ARTIFACT_TYPES)
  type!: string;

  @ApiProperty({ minLength: 1, maxLength: ARTIFACT_LIMITS.maxPathChars, example: 'src/app.ts' })
  @IsString()
  @Length(1, ARTIFACT_LIMITS.maxPathChars)
  path!: string;

  @ApiProperty({ minLength: 1, maxLength: ID, description: 'The task it belongs to (404, 3004 when unknown).' })
  @IsString()
  @Length(1, ID)
  task_id!: string;

  @ApiProperty({ minLength: 1, maxLength: ID, description: 'The agent that made it.' })
  @IsString()
  @Length(1, ID)
  created_by!: string;

  @ApiPropertyOptional({ maxLength: ARTIFACT_LIMITS.maxDescriptionChars, default: '' })
  @IsOptional()
  @IsString()
  @MaxLength(ARTIFACT_LIMITS.maxDescriptionChars)
  description?: string;

  @ApiPropertyOptional({
    maxLength: ARTIFACT_LIMITS.maxContentTypeChars,
    description: 'The media type the content will have; an upload with its own Content-Type replaces it.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(ARTIFACT_LIMITS.maxContentTypeChars)
  content_type?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: ID, description: 'The project (404, 3003 when unknown).' })
  @IsOptional()
  @IsString()
  @Length(1, ID)
  project_id?: string;
}

/** What a task produced: metadata and, once uploaded, downloadable content. */
@ApiSchema({ name: 'Artifact' })
export class ArtifactDto {
  @ApiProperty({ maxLength: ID })
  id!: string;

  @ApiProperty({ enum: ARTIFACT_TYPES })
  type!: string;

  @ApiProperty({ maxLength: ARTIFACT_LIMITS.maxPathChars })
  path!: string;

  @ApiProperty()
  task_id!: string;

  @ApiProperty()
  created_by!: string;

  @ApiProperty({ default: '' })
  description!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, nullable: true })
  project_id!: string | null;

  @ApiProperty({ description: 'The media type of the content; "" while there is none.' })
  content_type!: string;

  @ApiProperty({ minimum: 0, description: '0 while there is no content.' })
  size_bytes!: number;

  @ApiProperty({ type: String, nullable: true, description: 'SHA-256 of the content, hex; null while there is none.' })
  sha256!: string | null;
}
