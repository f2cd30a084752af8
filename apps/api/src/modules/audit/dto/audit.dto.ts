import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { IsISO8601, IsOptional, IsString, Length } from 'class-validator';

import { PageQueryDto } from '@app/platform';

/** The audit list's filters and page. */
export class AuditQueryDto extends PageQueryDto {
  @ApiPropertyOptional({ maxLength: 256 })
  @IsOptional()
  @IsString()
  @Length(1, 256)
  actor?: string;

  @ApiPropertyOptional({ maxLength: 64, example: 'approval.decided' })
  @IsOptional()
  @IsString()
  @Length(1, 64)
  action?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Rows at or after this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Rows at or before this time' })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string;
}

/** One audit row with its place in the hash chain. */
@ApiSchema({ name: 'AuditEntry' })
export class AuditEntryResponseDto {
  @ApiProperty({ description: 'Position in the chain, without gaps' })
  seq!: number;

  @ApiProperty()
  id!: string;

  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiProperty({ description: 'A username, an agent id, or system' })
  actor!: string;

  @ApiProperty({ example: 'approval.decided' })
  action!: string;

  @ApiProperty({ type: String, nullable: true })
  target!: string | null;

  @ApiProperty({ example: 'success' })
  outcome!: string;

  @ApiProperty({ type: String, nullable: true })
  request_id!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Redacted details' })
  details!: Record<string, unknown>;

  @ApiProperty({ description: 'SHA-256 of the previous row' })
  prev_hash!: string;

  @ApiProperty({ description: 'SHA-256 of prev_hash and this row' })
  hash!: string;
}

/** The outcome of a verification of the whole chain. */
@ApiSchema({ name: 'AuditVerification' })
export class AuditVerificationDto {
  @ApiProperty()
  ok!: boolean;

  @ApiProperty({ description: 'Rows checked' })
  checked!: number;

  @ApiProperty({ type: Number, nullable: true, description: 'The first row that does not hold' })
  broken_seq!: number | null;

  @ApiProperty({ type: String, nullable: true, enum: ['hash_mismatch', 'link_mismatch', 'gap'] })
  reason!: string | null;
}
