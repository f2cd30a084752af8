import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayUnique, IsArray, IsBoolean, IsIn, IsOptional, IsString, Length } from 'class-validator';

import { BACKUP_COMPONENTS, BACKUP_TRIGGERS, type BackupComponent, type BackupTrigger } from '@app/domain';

/** A backup's manifest, as stored in its `manifest.json`. */
@ApiSchema({ name: 'BackupManifest' })
export class BackupManifestDto {
  @ApiProperty({ description: 'Version of the service that took the backup' })
  synthorg_version!: string;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty({ enum: BACKUP_TRIGGERS })
  trigger!: BackupTrigger;

  @ApiProperty({ enum: BACKUP_COMPONENTS, isArray: true })
  components!: BackupComponent[];

  @ApiProperty({ description: 'Bytes of the backed-up files, before compression', minimum: 0 })
  size_bytes!: number;

  @ApiProperty({ pattern: '^sha256:[0-9a-f]{64}$' })
  checksum!: string;

  @ApiProperty({ pattern: '^[0-9a-f]{12}$' })
  backup_id!: string;
}

/** One backup in the list. */
@ApiSchema({ name: 'BackupInfo' })
export class BackupInfoDto {
  @ApiProperty({ pattern: '^[0-9a-f]{12}$' })
  backup_id!: string;

  @ApiProperty({ format: 'date-time' })
  timestamp!: string;

  @ApiProperty({ enum: BACKUP_TRIGGERS })
  trigger!: BackupTrigger;

  @ApiProperty({ enum: BACKUP_COMPONENTS, isArray: true })
  components!: BackupComponent[];

  @ApiProperty({ minimum: 0 })
  size_bytes!: number;

  @ApiProperty({ description: 'Stored as a tar.gz archive' })
  compressed!: boolean;
}

/** Restore a backup over the live data. */
@ApiSchema({ name: 'RestoreRequest' })
export class RestoreRequestDto {
  @ApiProperty({ minLength: 1, maxLength: 128, description: 'The backup to restore (12 hex digits)' })
  @IsString()
  @Length(1, 128)
  backup_id!: string;

  @ApiPropertyOptional({
    enum: BACKUP_COMPONENTS,
    isArray: true,
    nullable: true,
    description: 'Components to restore; null or absent: every component in the manifest',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(BACKUP_COMPONENTS.length)
  @ArrayUnique()
  @IsIn(BACKUP_COMPONENTS, { each: true })
  components?: BackupComponent[] | null;

  @ApiProperty({ description: 'Must be true: a restore replaces live data' })
  @IsBoolean()
  confirm!: boolean;
}

/** What a restore did. */
@ApiSchema({ name: 'RestoreResponse' })
export class RestoreResponseDto {
  @ApiProperty({ type: BackupManifestDto })
  manifest!: BackupManifestDto;

  @ApiProperty({ enum: BACKUP_COMPONENTS, isArray: true })
  restored_components!: BackupComponent[];

  @ApiProperty({ pattern: '^[0-9a-f]{12}$', description: 'The pre_migration backup taken just before' })
  safety_backup_id!: string;

  @ApiProperty({ description: 'True when a restored component takes effect only after a restart (the config file)' })
  restart_required!: boolean;
}
