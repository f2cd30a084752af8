import { randomBytes } from 'node:crypto';

import { ErrorCode, ValidationError } from '../errors';
import { TASK_STATUSES, type TaskStatus } from './task-enums';

/** Server-made ids: `task-` and 32 hex digits. */
export function newTaskId(): string {
  return `task-${randomBytes(16).toString('hex')}`;
}

/**
 * The list filter `status`: omitted means `created` (the interface's default); an empty value or
 * the word `null` lists every status; anything else must be a task status.
 */
export function parseTaskStatusFilter(raw: string | undefined): TaskStatus | null {
  if (raw === undefined) {
    return 'created';
  }
  const value = raw.trim();
  if (value === '' || value === 'null') {
    return null;
  }
  return parseTaskStatus(value, 'status');
}

export function parseTaskStatus(value: string, field = 'target_status'): TaskStatus {
  if ((TASK_STATUSES as readonly string[]).includes(value)) {
    return value as TaskStatus;
  }
  throw new ValidationError(
    `${field}: "${value}" is not a task status (one of ${TASK_STATUSES.join(', ')})`,
    ErrorCode.RequestValidationError,
  );
}

const DEADLINE_PATTERN = /^(\d{4}-\d{2}-\d{2})(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * An ISO 8601 date (midnight UTC) or date-time with an explicit offset, so the stored instant never
 * depends on the server's time zone. Blank, unparseable and impossible dates (2026-02-30) are rejected.
 */
export function parseDeadline(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) {
    return null;
  }
  const value = raw.trim();
  const match = DEADLINE_PATTERN.exec(value);
  const day = match?.[1];
  const at = Date.parse(match?.[2] ? value : `${day}T00:00:00Z`);
  const midnight = new Date(`${day ?? ''}T00:00:00Z`);
  const realDay = day !== undefined && !Number.isNaN(midnight.getTime()) && midnight.toISOString().startsWith(day);
  if (!match || !realDay || Number.isNaN(at)) {
    throw new ValidationError(
      `deadline: "${raw}" is not an ISO 8601 date or a date-time with an offset (e.g. 2026-12-01T17:00:00Z)`,
      ErrorCode.RequestValidationError,
    );
  }
  return new Date(at).toISOString();
}

/** Text that must carry something besides whitespace. */
export function requireText(field: string, value: string): string {
  const trimmed = value.trim();
  if (trimmed.length === 0) {
    throw new ValidationError(`${field}: must not be blank`, ErrorCode.RequestValidationError);
  }
  return trimmed;
}

/** Unique values in first-seen order, refusing the task's own id (no self-dependency). */
export function uniqueRefs(field: string, values: readonly string[] | undefined, selfId?: string): string[] {
  const seen: string[] = [];
  for (const raw of values ?? []) {
    const value = requireText(field, raw);
    if (selfId && value === selfId) {
      throw new ValidationError(`${field}: a task cannot reference itself`, ErrorCode.RequestValidationError);
    }
    if (!seen.includes(value)) {
      seen.push(value);
    }
  }
  return seen;
}
