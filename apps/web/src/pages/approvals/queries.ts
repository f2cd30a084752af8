import { type PageOf, type Schemas, unwrap, unwrapPage } from '@app/client';

import { api } from '../../app/api';

export type Approval = Schemas['ApprovalResponse'];
export type ApprovalStatus = Approval['status'];
export type RiskLevel = Approval['risk_level'];
export type UrgencyLevel = Approval['urgency_level'];

export const APPROVAL_STATUSES: readonly ApprovalStatus[] = ['pending', 'approved', 'rejected', 'expired'];
export const RISK_LEVELS: readonly RiskLevel[] = ['low', 'medium', 'high', 'critical'];

export interface ApprovalFilter {
  status: ApprovalStatus;
  risk: RiskLevel | null;
  /** 0 for the first page. */
  page: number;
  limit: number;
}

/** Every approvals query starts with 'approvals', so the live channel refreshes it. */
export const approvalKeys = {
  all: ['approvals'] as const,
  list: (filter: ApprovalFilter) => ['approvals', 'list', filter] as const,
  count: (status: ApprovalStatus) => ['approvals', 'count', status] as const,
};

function listPage(status: ApprovalStatus, risk: RiskLevel | null, offset: number, limit: number) {
  return unwrapPage(
    api.GET('/api/v1/approvals', {
      params: { query: { status, ...(risk ? { risk_level: risk } : {}), offset, limit } },
    }),
  );
}

/**
 * One page of items. The API lists oldest first: pending items keep that order (the longest
 * waiting first, reordered by urgency on screen); the history is read from its end, newest first.
 */
export async function fetchApprovals(filter: ApprovalFilter): Promise<PageOf<Approval>> {
  const { status, risk, page, limit } = filter;
  if (status === 'pending') {
    return listPage(status, risk, page * limit, limit);
  }
  const { total } = await listPage(status, risk, 0, 1);
  const end = total - page * limit;
  if (end <= 0) {
    return { items: [], total, offset: page * limit, limit };
  }
  const start = Math.max(0, end - limit);
  const read = await listPage(status, risk, start, end - start);
  return { items: [...read.items].reverse(), total: read.total, offset: page * limit, limit };
}

/** A task read for its title (items and activity name tasks by id); under 'tasks', so task events refresh it. */
export function taskQuery(taskId: string) {
  return {
    queryKey: ['tasks', 'one', taskId] as const,
    queryFn: () => unwrap(api.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: taskId } } })),
    staleTime: 60_000,
  };
}

/** How many items have this status (one row read; the total comes with the page). */
export async function countApprovals(status: ApprovalStatus): Promise<number> {
  return (await listPage(status, null, 0, 1)).total;
}

/**
 * The decision bodies. The optional comment is a string; the generated schema types the nullable
 * field loosely, hence the cast of the body, not of any value.
 */
export function approveItem(id: string, comment: string): Promise<Approval> {
  const body = (comment ? { comment } : {}) as Schemas['ApproveRequest'];
  return unwrap(api.POST('/api/v1/approvals/{approval_id}/approve', { params: { path: { approval_id: id } }, body }));
}

export function rejectItem(id: string, reason: string): Promise<Approval> {
  return unwrap(
    api.POST('/api/v1/approvals/{approval_id}/reject', { params: { path: { approval_id: id } }, body: { reason } }),
  );
}

const HOUR_MS = 3_600_000;

/**
 * The urgency now, from the deadline (the server's level was computed when the list was read):
 * critical under an hour, high under four, normal beyond, no_expiry without a deadline.
 */
export function urgencyNow(item: Pick<Approval, 'expires_at' | 'urgency_level'>, now: number): UrgencyLevel {
  if (!item.expires_at) {
    return 'no_expiry';
  }
  const left = new Date(item.expires_at).getTime() - now;
  if (!Number.isFinite(left)) {
    return item.urgency_level;
  }
  if (left < HOUR_MS) {
    return 'critical';
  }
  return left < 4 * HOUR_MS ? 'high' : 'normal';
}

const URGENCY_ORDER: Record<UrgencyLevel, number> = { critical: 0, high: 1, normal: 2, no_expiry: 3 };
const RISK_ORDER: Record<RiskLevel, number> = { critical: 0, high: 1, medium: 2, low: 3 };

/** Pending items most pressing first: by urgency, then the nearest deadline, then the highest risk. */
export function byUrgency(now: number): (a: Approval, b: Approval) => number {
  return (a, b) => {
    const urgency = URGENCY_ORDER[urgencyNow(a, now)] - URGENCY_ORDER[urgencyNow(b, now)];
    if (urgency !== 0) {
      return urgency;
    }
    const deadline =
      (a.expires_at ? Date.parse(a.expires_at) : Number.MAX_SAFE_INTEGER) -
      (b.expires_at ? Date.parse(b.expires_at) : Number.MAX_SAFE_INTEGER);
    if (deadline !== 0) {
      return deadline;
    }
    return RISK_ORDER[a.risk_level] - RISK_ORDER[b.risk_level];
  };
}

/**
 * What an item asks to run. The engine files an escalated tool call with the tool and agent in the
 * metadata and the description "<reason>\n\narguments: <JSON>"; items filed by hand have a plain
 * description and whatever metadata their author gave.
 */
export interface RequestedCall {
  reason: string;
  tool: string | null;
  agent: string | null;
  /** The arguments, pretty-printed when they are JSON. */
  args: string | null;
  /** The remaining metadata, in the order given. */
  details: Array<[string, string]>;
}

const ARGUMENTS_MARK = '\n\narguments: ';

export function requestedCall(item: Pick<Approval, 'description' | 'metadata'>): RequestedCall {
  const metadata = item.metadata ?? {};
  const at = item.description.lastIndexOf(ARGUMENTS_MARK);
  let reason = item.description;
  let args: string | null = null;
  if (at >= 0) {
    reason = item.description.slice(0, at);
    const raw = item.description.slice(at + ARGUMENTS_MARK.length);
    try {
      args = JSON.stringify(JSON.parse(raw), null, 2);
    } catch {
      // Cut at the description's length limit: shown as it came.
      args = raw;
    }
  }
  const { tool_name: tool, agent_name: agent, ...rest } = metadata;
  return {
    reason: reason.trim(),
    tool: tool ?? null,
    agent: agent ?? null,
    args,
    details: Object.entries(rest),
  };
}
