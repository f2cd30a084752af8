import type { ActivityEvent } from '../company/activity';

/**
 * Cost redaction for read-only roles (observer, board member): they follow the work but not the
 * spend. Pure: the input payload is never modified; an event without cost comes back as the very
 * same object, so callers can reuse what they already serialised for it.
 */

/** Key names carrying money: cost, cost_usd, total_cost_usd, estimated_costs, spent_usd, price_per_token... */
const COST_KEY = /(^|_)(cost|costs|spend|spent|price|prices|pricing)(_|$)/i;

/** `API call to <model> (<in>+<out> tokens, <cost>)`, the activity feed's wording of a provider call. */
const ACTIVITY_DESCRIPTION = /^API call to .+ \((\d[\d,]*)\+(\d[\d,]*) tokens, [^)]*\)$/;

export const REDACTED_DESCRIPTION = 'API call (details redacted)';

const MAX_DEPTH = 32;

export interface RedactionResult {
  payload: Record<string, unknown>;
  redacted: boolean;
}

export function isCostKey(key: string): boolean {
  return COST_KEY.test(key);
}

/** Rewrites an activity description without the model and the cost; null when it is not one. */
export function redactActivityDescription(description: string): string | null {
  const match = ACTIVITY_DESCRIPTION.exec(description);
  return match ? `API call (${match[1]}+${match[2]} tokens)` : null;
}

/** An activity feed event as a read-only role sees it: provider calls and task runs without their cost. */
export function redactActivityCosts(event: ActivityEvent): ActivityEvent {
  if (event.event_type === 'cost_incurred') {
    return { ...event, description: redactActivityDescription(event.description) ?? REDACTED_DESCRIPTION };
  }
  if (event.event_type === 'task_completed') {
    return { ...event, description: event.description.replace(/, [^,()]+\)$/, ')') };
  }
  return event;
}

/** A payload without its money fields (see redactObject); the same object back when it carries none. */
export function redactCostPayload(payload: Record<string, unknown>): RedactionResult {
  const result = redactObject(payload, 0);
  return { payload: result.value, redacted: result.changed };
}

interface Walk<T> {
  value: T;
  changed: boolean;
}

function redactValue(value: unknown, depth: number): Walk<unknown> {
  if (depth >= MAX_DEPTH || value === null || typeof value !== 'object') {
    return { value, changed: false };
  }
  if (Array.isArray(value)) {
    let changed = false;
    const items = value.map((item) => {
      const walked = redactValue(item, depth + 1);
      changed ||= walked.changed;
      return walked.value;
    });
    return changed ? { value: items, changed } : { value, changed: false };
  }
  return redactObject(value as Record<string, unknown>, depth);
}

/**
 * An object whose subtree carries cost is a cost record: its cost fields become null and its
 * description loses whatever could reveal the spend (an activity description keeps its token counts).
 */
function redactObject(source: Record<string, unknown>, depth: number): Walk<Record<string, unknown>> {
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(source)) {
    if (isCostKey(key) && value !== null && value !== undefined && typeof value !== 'boolean') {
      out[key] = null;
      changed = true;
      continue;
    }
    const walked = redactValue(value, depth + 1);
    changed ||= walked.changed;
    out[key] = walked.value;
  }
  if (typeof source.description === 'string') {
    const activity = redactActivityDescription(source.description);
    if (activity !== null) {
      out.description = activity;
      changed = true;
    } else if (changed) {
      out.description = REDACTED_DESCRIPTION;
    }
  }
  return changed ? { value: out, changed } : { value: source, changed: false };
}
