import { type ArtifactEntity, rawIso, rawNumber } from '@app/persistence';

import type { ArtifactDto } from './dto/artifact.dto';

/** An artifact as the API shows it. */
export function toArtifactDto(row: ArtifactEntity): ArtifactDto {
  return {
    id: row.id,
    type: row.type,
    path: row.path,
    task_id: row.taskId,
    created_by: row.createdBy,
    description: row.description,
    created_at: row.createdAt.toISOString(),
    project_id: row.projectId,
    content_type: row.contentType,
    size_bytes: row.sizeBytes,
    sha256: row.sha256,
  };
}

/** The columns of `artifacts` a list page reads. */
export const ARTIFACT_ROW_COLUMNS = [
  'id',
  'type',
  'path',
  'task_id',
  'created_by',
  'description',
  'created_at',
  'project_id',
  'content_type',
  'size_bytes',
  'sha256',
] as const;

/** A list row as the database answers it (either dialect). */
export type ArtifactRow = Record<(typeof ARTIFACT_ROW_COLUMNS)[number], unknown>;

/** A raw list row as the API shows it. */
export function toArtifactDtoFromRow(row: ArtifactRow): ArtifactDto {
  return {
    id: String(row.id),
    type: String(row.type),
    path: String(row.path),
    task_id: String(row.task_id),
    created_by: String(row.created_by),
    description: String(row.description),
    created_at: rawIso(row.created_at),
    project_id: textOrNull(row.project_id),
    content_type: String(row.content_type),
    size_bytes: rawNumber(row.size_bytes),
    sha256: textOrNull(row.sha256),
  };
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}
