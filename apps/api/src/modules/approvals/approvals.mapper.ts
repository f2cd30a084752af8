import { type ApprovalStatus, type RiskLevel, secondsRemaining, urgencyLevel } from '@app/domain';
import { type ApprovalItemEntity, rawIso, rawIsoOrNull, rawJson } from '@app/persistence';

import type { ApprovalResponseDto } from './dto/approval-item.dto';

/** The columns of `approval_items` a list page reads: what the response shows. */
export const APPROVAL_ROW_COLUMNS = [
  'id',
  'action_type',
  'title',
  'description',
  'requested_by',
  'risk_level',
  'status',
  'task_id',
  'metadata',
  'decided_by',
  'decision_reason',
  'created_at',
  'decided_at',
  'expires_at',
] as const;

/** A raw `approval_items` row of {@link APPROVAL_ROW_COLUMNS}, as either dialect answers it. */
export type ApprovalRow = Record<(typeof APPROVAL_ROW_COLUMNS)[number], unknown>;

/** An item as the API shows it, with its urgency at `now`. */
export function toApproval(row: ApprovalItemEntity, now: Date = new Date()): ApprovalResponseDto {
  const remaining = secondsRemaining(row.expiresAt, now);
  return {
    id: row.id,
    action_type: row.actionType,
    title: row.title,
    description: row.description,
    requested_by: row.requestedBy,
    risk_level: row.riskLevel as RiskLevel,
    status: row.status as ApprovalStatus,
    task_id: row.taskId,
    metadata: row.metadata,
    decided_by: row.decidedBy,
    decision_reason: row.decisionReason,
    created_at: row.createdAt.toISOString(),
    decided_at: row.decidedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    seconds_remaining: remaining,
    urgency_level: urgencyLevel(remaining),
  };
}

/** A raw list row as the API shows it: the same shape and values as {@link toApproval} of the entity. */
export function rowToApproval(row: ApprovalRow, now: Date = new Date()): ApprovalResponseDto {
  const expires = rawIsoOrNull(row.expires_at);
  const remaining = secondsRemaining(expires === null ? null : new Date(expires), now);
  return {
    id: row.id as string,
    action_type: row.action_type as string,
    title: row.title as string,
    description: row.description as string,
    requested_by: row.requested_by as string,
    risk_level: row.risk_level as RiskLevel,
    status: row.status as ApprovalStatus,
    task_id: row.task_id as string | null,
    metadata: rawJson(row.metadata),
    decided_by: row.decided_by as string | null,
    decision_reason: row.decision_reason as string | null,
    created_at: rawIso(row.created_at),
    decided_at: rawIsoOrNull(row.decided_at),
    expires_at: expires,
    seconds_remaining: remaining,
    urgency_level: urgencyLevel(remaining),
  };
}
