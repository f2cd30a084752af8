import { HumanRole } from '../auth/roles';

/** An approval item's lifecycle states. */
export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

/** How close an item is to its expiry, as the spec names it. */
export const URGENCY_LEVELS = ['critical', 'high', 'normal', 'no_expiry'] as const;
export type UrgencyLevel = (typeof URGENCY_LEVELS)[number];

/** A human decision on a pending item. */
export type ApprovalDecision = 'approved' | 'rejected';

/** `category:action`, each part lower-case letters, digits, `_` or `-` (128 characters at most). */
export const ACTION_TYPE_PATTERN = /^[a-z0-9_-]+:[a-z0-9_-]+$/;

/** Limits of the create body (engine.md §12). */
export const APPROVAL_LIMITS = {
  actionType: 128,
  title: 256,
  description: 4096,
  taskId: 128,
  metadataKeys: 20,
  metadataText: 256,
  comment: 4096,
  minTtlSeconds: 60,
  maxTtlSeconds: 604_800,
} as const;

const HOUR = 3600;

/** Seconds until `expiresAt`, clamped at 0 once past; null without a deadline. */
export function secondsRemaining(expiresAt: Date | null, now: Date): number | null {
  if (expiresAt === null) {
    return null;
  }
  return Math.max(0, (expiresAt.getTime() - now.getTime()) / 1000);
}

/** critical under 1 hour, high under 4 hours, normal beyond, no_expiry without a deadline. */
export function urgencyLevel(remaining: number | null): UrgencyLevel {
  if (remaining === null) {
    return 'no_expiry';
  }
  if (remaining < HOUR) {
    return 'critical';
  }
  return remaining < 4 * HOUR ? 'high' : 'normal';
}

/** Whether the item can still be decided (by a person or by its timeout). */
export function isPending(status: string): boolean {
  return status === 'pending';
}

/**
 * Who may decide an item: the CEO and the Board Member any item; a Manager only items of the
 * department they have authority over. Every other role may only read.
 */
export function mayDecide(
  actor: { role: string; department: string | null },
  item: { department: string | null },
): boolean {
  if (actor.role === HumanRole.Ceo || actor.role === HumanRole.BoardMember) {
    return true;
  }
  return actor.role === HumanRole.Manager && actor.department !== null && actor.department === item.department;
}
