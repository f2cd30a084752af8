import { TASK_PRIORITIES, type TaskPriority } from '../tasks/task-enums';
import type { MeetingPhase, MeetingProtocol, MeetingStatus } from './meeting-types';

/** One thing said in a meeting. */
export interface MeetingContribution {
  agentId: string;
  content: string;
  phase: MeetingPhase;
  turnNumber: number;
  inputTokens: number;
  outputTokens: number;
  timestamp: Date;
}

export interface AgendaItem {
  title: string;
  description: string;
  presenterId: string | null;
}

export interface MeetingAgenda {
  title: string;
  context: string;
  items: AgendaItem[];
}

export interface ActionItem {
  description: string;
  assigneeId: string | null;
  priority: TaskPriority;
}

/** What a finished meeting leaves behind. */
export interface MeetingMinutes {
  meetingId: string;
  protocolType: MeetingProtocol;
  leaderId: string;
  participantIds: string[];
  agenda: MeetingAgenda;
  contributions: MeetingContribution[];
  summary: string;
  decisions: string[];
  actionItems: ActionItem[];
  conflictsDetected: boolean;
  totalInputTokens: number;
  totalOutputTokens: number;
  startedAt: Date;
  endedAt: Date;
}

/**
 * Words that mark a position as contested. Conflict detection looks for them in what participants
 * said independently (papers, gathered input) or in turn; one is enough to open a discussion.
 */
const DISAGREEMENT = [
  /\bdisagree/i,
  /\bi object\b/i,
  /\bobjection/i,
  /\boppose/i,
  /\bconflict/i,
  /\binstead of\b/i,
  /\breject/i,
  /\bnot convinced\b/i,
  /\bconcern(s|ed)?\b/i,
  /\bcounter-?proposal/i,
];

/** Whether any of these contributions contests a position. */
export function detectConflicts(contributions: readonly Pick<MeetingContribution, 'content'>[]): boolean {
  return contributions.some((c) => DISAGREEMENT.some((pattern) => pattern.test(c.content)));
}

/** The instructions every synthesis and summary prompt ends with: the shape `parseSynthesis` reads. */
export const SYNTHESIS_FORMAT =
  'Answer in lines: "SUMMARY: <one paragraph>", then one "DECISION: <decision>" line per decision, ' +
  'then one "ACTION: <assignee name> | <priority: critical, high, medium or low> | <what to do>" line per action item.';

/** A participant as synthesis parsing resolves assignee names. */
export interface NamedParticipant {
  id: string;
  name: string;
}

/**
 * Reads a synthesis: `SUMMARY:`, `DECISION:` and `ACTION:` lines (case-insensitive, list markers
 * allowed). Text outside them is the summary when no SUMMARY line is given. An action's assignee is
 * a participant's name or id, else none; an unknown priority is `medium`.
 */
export function parseSynthesis(
  text: string,
  participants: readonly NamedParticipant[],
): { summary: string; decisions: string[]; actionItems: ActionItem[] } {
  const summaryLines: string[] = [];
  const loose: string[] = [];
  const decisions: string[] = [];
  const actionItems: ActionItem[] = [];
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.replace(/^\s*(?:[-*•]|\d+[.)])?\s*/, '').trim();
    if (line === '') {
      continue;
    }
    const match = /^(summary|decision|action)\s*:\s*(.*)$/i.exec(line);
    if (!match) {
      loose.push(line);
      continue;
    }
    const body = match[2].trim();
    switch (match[1].toLowerCase()) {
      case 'summary':
        summaryLines.push(body);
        break;
      case 'decision':
        if (body !== '') {
          decisions.push(body);
        }
        break;
      default: {
        const item = parseAction(body, participants);
        if (item) {
          actionItems.push(item);
        }
      }
    }
  }
  const summary = (summaryLines.length > 0 ? summaryLines : loose).join(' ').trim();
  return { summary, decisions, actionItems };
}

function parseAction(body: string, participants: readonly NamedParticipant[]): ActionItem | null {
  const parts = body.split('|').map((p) => p.trim());
  if (parts.length >= 3) {
    const [who, priority, ...rest] = parts;
    const description = rest.join(' | ').trim();
    return description === ''
      ? null
      : { description, assigneeId: assigneeOf(who, participants), priority: priorityOf(priority) };
  }
  if (parts.length === 2) {
    const assigneeId = assigneeOf(parts[0], participants);
    return parts[1] === '' ? null : { description: parts[1], assigneeId, priority: 'medium' };
  }
  return body === '' ? null : { description: body, assigneeId: null, priority: 'medium' };
}

function assigneeOf(ref: string, participants: readonly NamedParticipant[]): string | null {
  const key = ref.trim().replace(/^@/, '').toLowerCase();
  return participants.find((p) => p.id.toLowerCase() === key || p.name.toLowerCase() === key)?.id ?? null;
}

function priorityOf(value: string): TaskPriority {
  const key = value.trim().toLowerCase();
  return (TASK_PRIORITIES as readonly string[]).includes(key) ? (key as TaskPriority) : 'medium';
}

/** Token totals of contributions. */
export function tokenTotals(contributions: readonly MeetingContribution[]): { input: number; output: number } {
  return contributions.reduce((sum, c) => ({ input: sum.input + c.inputTokens, output: sum.output + c.outputTokens }), {
    input: 0,
    output: 0,
  });
}

/** Per participant: input plus output tokens (every participant listed, zero when silent). */
export function tokenUsageByParticipant(minutes: MeetingMinutes | null): Record<string, number> {
  if (minutes === null) {
    return {};
  }
  const usage: Record<string, number> = {};
  for (const id of minutes.participantIds) {
    usage[id] = 0;
  }
  for (const c of minutes.contributions) {
    usage[c.agentId] = (usage[c.agentId] ?? 0) + c.inputTokens + c.outputTokens;
  }
  return usage;
}

/** Participant ids by total tokens, most first (ties in participant order). */
export function contributionRank(minutes: MeetingMinutes | null): string[] {
  if (minutes === null) {
    return [];
  }
  const usage = tokenUsageByParticipant(minutes);
  const order = Object.keys(usage);
  return [...order].sort((a, b) => usage[b] - usage[a] || order.indexOf(a) - order.indexOf(b));
}

/** Seconds between the minutes' start and end; null without minutes. */
export function meetingDurationSeconds(minutes: MeetingMinutes | null): number | null {
  return minutes === null ? null : Math.max(0, (minutes.endedAt.getTime() - minutes.startedAt.getTime()) / 1000);
}

/** A meeting's final state, holding the invariants between status, minutes and error. */
export type MeetingOutcome =
  | { status: 'completed'; minutes: MeetingMinutes; errorMessage: null }
  | { status: 'failed' | 'budget_exhausted'; minutes: null; errorMessage: string };

/** Whether a record keeps the invariants: completed has minutes and no error; failed and budget_exhausted the reverse. */
export function meetingInvariantHolds(
  status: MeetingStatus,
  hasMinutes: boolean,
  errorMessage: string | null,
): boolean {
  switch (status) {
    case 'completed':
      return hasMinutes && errorMessage === null;
    case 'failed':
    case 'budget_exhausted':
      return !hasMinutes && errorMessage !== null && errorMessage !== '';
    case 'scheduled':
    case 'in_progress':
    case 'cancelled':
      return true;
  }
}

/**
 * The agenda of a meeting: titled by its type; the context lists the trigger and its context; the
 * items come from the context's `agenda` (a string or a list), else one open item.
 */
export function buildAgenda(
  typeName: string,
  eventName: string | null,
  context: Readonly<Record<string, string | readonly string[]>>,
): MeetingAgenda {
  const lines = eventName === null ? [] : [`event: ${eventName}`];
  for (const [key, value] of Object.entries(context)) {
    if (key !== 'agenda') {
      lines.push(`${key}: ${typeof value === 'string' ? value : value.join(', ')}`);
    }
  }
  const raw = context.agenda;
  const titles = raw === undefined ? [] : typeof raw === 'string' ? [raw] : [...raw];
  const items = titles
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .map((title) => ({ title, description: '', presenterId: null }));
  return {
    title: typeName,
    context: lines.join('\n'),
    items: items.length > 0 ? items : [{ title: typeName, description: 'open discussion', presenterId: null }],
  };
}
