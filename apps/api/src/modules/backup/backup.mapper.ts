import type { BackupManifest } from '@app/domain';

import type { BackupInfoDto, BackupManifestDto, RestoreResponseDto } from './dto/backup.dto';
import type { StoredBackup } from './backup.store';
import type { RestoreOutcome } from './restore.use-case';

export function toManifest(manifest: BackupManifest): BackupManifestDto {
  return { ...manifest, components: [...manifest.components] };
}

export function toBackupInfo(backup: StoredBackup): BackupInfoDto {
  const { manifest } = backup;
  return {
    backup_id: manifest.backup_id,
    timestamp: manifest.timestamp,
    trigger: manifest.trigger,
    components: [...manifest.components],
    size_bytes: manifest.size_bytes,
    compressed: backup.compressed,
  };
}

export function toRestoreResponse(outcome: RestoreOutcome): RestoreResponseDto {
  return {
    manifest: toManifest(outcome.manifest),
    restored_components: outcome.restoredComponents,
    safety_backup_id: outcome.safetyBackupId,
    restart_required: outcome.restartRequired,
  };
}
