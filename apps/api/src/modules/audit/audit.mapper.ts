import { rawIso, rawJson, rawNumber } from '@app/persistence';

import type { AuditEntryResponseDto } from './dto/audit.dto';

/** The columns of `audit_entries` a list page reads. */
export const AUDIT_ROW_COLUMNS = [
  'seq',
  'id',
  'at',
  'actor',
  'action',
  'target',
  'outcome',
  'request_id',
  'details',
  'prev_hash',
  'hash',
] as const;

/** A raw `audit_entries` row, as either dialect answers it. */
export type AuditRow = Record<(typeof AUDIT_ROW_COLUMNS)[number], unknown>;

/** A raw row as the API shows it. */
export function rowToAuditEntry(row: AuditRow): AuditEntryResponseDto {
  return {
    seq: rawNumber(row.seq),
    id: row.id as string,
    at: rawIso(row.at),
    actor: row.actor as string,
    action: row.action as string,
    target: row.target as string | null,
    outcome: row.outcome as string,
    request_id: row.request_id as string | null,
    details: rawJson(row.details),
    prev_hash: row.prev_hash as string,
    hash: row.hash as string,
  };
}
