/** Career events kept in an agent's lifecycle log. */
export const LIFECYCLE_EVENT_TYPES = [
  'hired',
  'onboarded',
  'fired',
  'offboarded',
  'status_changed',
  'promoted',
  'demoted',
] as const;
export type LifecycleEventType = (typeof LIFECYCLE_EVENT_TYPES)[number];

/**
 * What an agent's /history shows: every career event (the reference's five, plus `status_changed`,
 * which edits of the agent write, and `offboarded`, the end of a firing), oldest first.
 */
export const CAREER_HISTORY_TYPES: readonly LifecycleEventType[] = [
  'hired',
  'onboarded',
  'status_changed',
  'promoted',
  'demoted',
  'fired',
  'offboarded',
];

/** Every activity feed event type (the only values `GET /activities?type=` accepts). */
export const ACTIVITY_EVENT_TYPES = [
  ...LIFECYCLE_EVENT_TYPES,
  'task_started',
  'task_completed',
  'cost_incurred',
  'tool_used',
  'delegation_sent',
  'delegation_received',
] as const;
export type ActivityEventType = (typeof ACTIVITY_EVENT_TYPES)[number];

export const ACTIVITY_WINDOWS_HOURS = [24, 48, 168] as const;
export const DEFAULT_ACTIVITY_WINDOW_HOURS = 24;
/** Rows read per source for one feed request: the feed is a recent-activity view, not an export. */
export const ACTIVITY_SOURCE_CAP = 2000;

export interface ActivityEvent {
  event_type: ActivityEventType;
  timestamp: string;
  description: string;
  related_ids: Record<string, string>;
}

export const DESCRIPTION_MAX_LENGTH = 1024;

export function clipDescription(text: string): string {
  return text.length <= DESCRIPTION_MAX_LENGTH ? text : `${text.slice(0, DESCRIPTION_MAX_LENGTH - 1)}…`;
}

/** Newest first; ties keep a stable order by type then description. */
export function sortNewestFirst(events: ActivityEvent[]): ActivityEvent[] {
  return events.sort(
    (a, b) =>
      b.timestamp.localeCompare(a.timestamp) ||
      a.event_type.localeCompare(b.event_type) ||
      a.description.localeCompare(b.description),
  );
}

export function formatMoney(amount: number, currency: string): string {
  return `${amount.toFixed(4)} ${currency}`;
}

/**
 * A module's contribution to the activity feed (delegations, for one): the event types it makes and
 * how to read them. A failing source is named in the feed's `degraded_sources`; the rest still answers.
 */
export interface ActivitySource {
  /** How a failure is reported in `degraded_sources` (e.g. `delegation_record_store`). */
  readonly name: string;
  readonly eventTypes: readonly ActivityEventType[];
  /** Events at or after `since` (null: any time, capped), of one agent when `agentId` is given. */
  read(since: Date | null, agentId: string | undefined): Promise<ActivityEvent[]>;
}
