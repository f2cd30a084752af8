import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

import { MEMORY_CATEGORIES, ORG_FACT_CATEGORIES } from '@app/domain';
import { PageQueryDto } from '@app/platform';

/** `GET /agents/{agent_name}/memories`: the page and the filters. */
export class MemoryQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: MEMORY_CATEGORIES })
  @IsOptional()
  @IsIn(MEMORY_CATEGORIES)
  category?: string;

  @ApiPropertyOptional({ minLength: 1, maxLength: 128 })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  project?: string;
}

@ApiSchema({ name: 'MemorySearchRequest' })
export class MemorySearchDto {
  @ApiProperty({ minLength: 1, maxLength: 2000 })
  @IsString()
  @Length(1, 2000)
  query!: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 100, default: 10 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  @ApiPropertyOptional({ enum: MEMORY_CATEGORIES })
  @IsOptional()
  @IsIn(MEMORY_CATEGORIES)
  category?: string;
}

@ApiSchema({ name: 'MemoryEntry' })
export class MemoryEntryDto {
  @ApiProperty()
  id!: string;

  @ApiProperty()
  agent_id!: string;

  @ApiProperty({ enum: MEMORY_CATEGORIES })
  category!: string;

  @ApiProperty({ enum: ['session', 'project', 'persistent'] })
  level!: string;

  @ApiProperty()
  content!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata!: Record<string, unknown>;

  @ApiProperty({ type: 'string', nullable: true })
  project!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  task_id!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Set when archived (read-only).' })
  archive_id!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  updated_at!: string | null;

  @ApiProperty({ type: 'string', format: 'date-time', nullable: true })
  expires_at!: string | null;

  @ApiPropertyOptional({ type: 'number', description: 'Search results only: cosine relevance, 0 to 1.' })
  relevance_score?: number;
}

@ApiSchema({ name: 'MemoryReembeddingStatus' })
export class MemoryReembeddingDto {
  @ApiProperty({
    enum: ['idle', 'running'],
    description: 'running: stored vectors are being made again by a newly configured embedder.',
  })
  state!: 'idle' | 'running';

  @ApiProperty({ type: 'integer', description: 'Entries and facts embedded again so far.' })
  done!: number;

  @ApiProperty({ type: 'integer', description: 'Entries and facts to embed again in all.' })
  total!: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    description: 'The embedder retrieval uses (provider/model/dims): the old one until a re-embedding is done.',
  })
  retrieval_embedder!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'The embedder a running re-embedding moves to.' })
  target_embedder!: string | null;
}

@ApiSchema({ name: 'MemoryStatus' })
export class MemoryStatusDto {
  @ApiProperty({ description: 'Whether a memory backend is wired.' })
  wired!: boolean;

  @ApiProperty({ type: 'string', nullable: true, description: 'Why not, when not wired.' })
  reason!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, description: 'The code of the reason.' })
  code!: number | null;

  @ApiProperty({
    description:
      'The memory store: embedded (the service database and an in-memory index per replica; the setting memory.backend mem0 is its alias), or the unknown value configured.',
  })
  backend!: string;

  @ApiProperty({ type: 'string', nullable: true })
  embedder_provider!: string | null;

  @ApiProperty({ type: 'string', nullable: true })
  embedder_model!: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  embedder_dims!: number | null;

  @ApiProperty({ type: 'integer' })
  entries!: number;

  @ApiProperty({ type: 'integer' })
  org_facts!: number;

  @ApiProperty({ type: 'integer', description: "Entries in this replica's index." })
  indexed!: number;

  @ApiProperty({ type: MemoryReembeddingDto, description: 'Re-embedding after a change of embedder.' })
  reembedding!: MemoryReembeddingDto;
}

/** `GET /memory/org`: the page and the category filter. */
export class OrgFactQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: ORG_FACT_CATEGORIES })
  @IsOptional()
  @IsIn(ORG_FACT_CATEGORIES)
  category?: string;
}

@ApiSchema({ name: 'CreateOrgFactRequest' })
export class CreateOrgFactDto {
  @ApiProperty({ enum: ORG_FACT_CATEGORIES })
  @IsIn(ORG_FACT_CATEGORIES)
  category!: string;

  @ApiProperty({ minLength: 1, maxLength: 2000 })
  @IsString()
  @Length(1, 2000)
  content!: string;

  @ApiPropertyOptional({
    minLength: 1,
    maxLength: 128,
    description: "The CEO's choice (omitted: company-wide); a manager's is their own department.",
  })
  @IsOptional()
  @IsString()
  @Length(1, 128)
  department?: string;
}

@ApiSchema({ name: 'OrgFact' })
export class OrgFactDto {
  @ApiProperty()
  id!: string;

  @ApiProperty({ enum: ORG_FACT_CATEGORIES })
  category!: string;

  @ApiProperty()
  content!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'null: company-wide.' })
  department!: string | null;

  @ApiProperty()
  author!: string;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
