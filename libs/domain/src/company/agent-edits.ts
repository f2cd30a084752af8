import { ConflictError, ErrorCode } from '../errors';
import { clipDescription } from './activity';
import type { AgentStatus } from './enums';

/** Memory levels (engine.md §14): what an agent keeps between tasks. */
export const MEMORY_TYPES = ['persistent', 'project', 'session', 'none'] as const;
export type MemoryType = (typeof MEMORY_TYPES)[number];

/** The statuses an edit may set: leave and the return from it. Hiring, onboarding and firing move the others. */
export const EDITABLE_AGENT_STATUSES = ['active', 'on_leave'] as const satisfies readonly AgentStatus[];
export type EditableAgentStatus = (typeof EDITABLE_AGENT_STATUSES)[number];

/** Which status an edit may move an agent to, from each status (data, not ifs). */
const STATUS_EDITS: Readonly<Record<AgentStatus, readonly AgentStatus[]>> = {
  active: ['on_leave'],
  on_leave: ['active'],
  onboarding: [],
  terminated: [],
};

/** A terminated agent stays as it was fired: nothing of it can be edited. */
export function assertAgentEditable(agent: { name: string; status: string }): void {
  if (agent.status === 'terminated') {
    throw new ConflictError(
      `Agent "${agent.name}" is terminated and can no longer be edited`,
      ErrorCode.AgentTerminated,
    );
  }
}

/** Refuses a status change an edit does not make (setting the current status again is no change). */
export function assertAgentStatusEdit(from: string, to: string): void {
  if (from === to) {
    return;
  }
  const allowed = (STATUS_EDITS as Record<string, readonly string[] | undefined>)[from] ?? [];
  if (!allowed.includes(to)) {
    throw new ConflictError(
      `status: an agent that is ${from} cannot be set to ${to} by an edit` +
        (allowed.length > 0 ? ` (only to ${allowed.join(', ')})` : ''),
      ErrorCode.AgentStatusChangeInvalid,
    );
  }
}

/** An agent's entity tag for If-Match: it changes with every write of the agent's row. */
export function agentEtag(agent: { id: string; version: number }): string {
  return `"agent-${agent.id.slice(0, 8)}-v${agent.version}"`;
}

/** One changed part of an agent (`model`, `status`, …), its values before and after as compact text. */
export interface AgentFieldChange {
  field: string;
  from: string;
  to: string;
}

/** Longest rendering of one value in a change (metadata values stay short). */
const VALUE_MAX = 256;

/**
 * The parts of an agent that differ between two views of it, in the order of `after`'s keys.
 * Objects compare by content whatever their key order.
 */
export function diffAgentFields(
  before: Readonly<Record<string, unknown>>,
  after: Readonly<Record<string, unknown>>,
): AgentFieldChange[] {
  const changes: AgentFieldChange[] = [];
  for (const field of Object.keys(after)) {
    const from = canonicalJson(before[field]);
    const to = canonicalJson(after[field]);
    if (from !== to) {
      changes.push({ field, from: renderValue(before[field], from), to: renderValue(after[field], to) });
    }
  }
  return changes;
}

/** The career event's text for a set of changes: `model: a → b; status: active → on_leave (reason)`. */
export function describeAgentChanges(changes: readonly AgentFieldChange[], reason?: string): string {
  const text = changes.map((c) => `${c.field}: ${c.from} → ${c.to}`).join('; ');
  return clipDescription(reason ? `${text} (${reason})` : text);
}

/** The career event's metadata: which parts changed, and each one's values before and after. */
export function agentChangeMetadata(changes: readonly AgentFieldChange[]): Record<string, string> {
  const metadata: Record<string, string> = { changed: changes.map((c) => c.field).join(',') };
  for (const change of changes) {
    metadata[`${change.field}.from`] = change.from;
    metadata[`${change.field}.to`] = change.to;
  }
  return metadata;
}

function renderValue(value: unknown, json: string): string {
  const text = typeof value === 'string' ? value : json;
  return text.length <= VALUE_MAX ? text : `${text.slice(0, VALUE_MAX - 1)}…`;
}

/** JSON with object keys sorted at every depth, so equal contents give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortKeys);
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(record)
        .sort()
        .map((key) => [key, sortKeys(record[key])]),
    );
  }
  return value;
}
