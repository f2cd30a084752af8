import { ErrorCode } from '../errors/error-codes';
import { ConflictError, ValidationError } from '../errors/errors';

/** How a meeting is run (engine reference §6). */
export const MEETING_PROTOCOLS = ['round_robin', 'position_papers', 'structured_phases'] as const;
export type MeetingProtocol = (typeof MEETING_PROTOCOLS)[number];

/** Where a meeting record stands; the scheduler writes the final one. */
export const MEETING_STATUSES = [
  'scheduled',
  'in_progress',
  'completed',
  'failed',
  'cancelled',
  'budget_exhausted',
] as const;
export type MeetingStatus = (typeof MEETING_STATUSES)[number];

/** The phase a contribution was made in. */
export const MEETING_PHASES = [
  'agenda_broadcast',
  'round_robin_turn',
  'position_paper',
  'input_gathering',
  'discussion',
  'synthesis',
  'summary',
] as const;
export type MeetingPhase = (typeof MEETING_PHASES)[number];

/** Frequencies of scheduled meetings and their intervals in seconds. */
export const MEETING_FREQUENCY_SECONDS = {
  daily: 86_400,
  weekly: 7 * 86_400,
  bi_weekly: 14 * 86_400,
  per_sprint_day: 86_400,
  monthly: 30 * 86_400,
} as const;
export type MeetingFrequency = keyof typeof MEETING_FREQUENCY_SECONDS;
export const MEETING_FREQUENCIES = Object.keys(MEETING_FREQUENCY_SECONDS) as MeetingFrequency[];

/** Defaults and bounds of meeting types and triggers. */
export const MEETING_LIMITS = {
  defaultDurationTokens: 2000,
  minParticipants: 2,
  maxNameChars: 128,
  maxContextKeys: 20,
  maxContextKeyChars: 256,
  maxContextValueChars: 1024,
  maxContextListItems: 50,
} as const;

export interface RoundRobinConfig {
  maxTurnsPerAgent: number;
  maxTotalTurns: number;
  leaderSummarizes: boolean;
}

export interface PositionPapersConfig {
  maxTokensPerPosition: number;
  /** `meeting_leader`, or a participant reference. */
  synthesizer: string;
}

export interface StructuredPhasesConfig {
  skipDiscussionIfNoConflicts: boolean;
  maxDiscussionTokens: number;
}

/** The protocol part of a meeting type, every option defaulted. */
export interface MeetingProtocolConfig {
  protocol: MeetingProtocol;
  autoCreateTasks: boolean;
  roundRobin: RoundRobinConfig;
  positionPapers: PositionPapersConfig;
  structuredPhases: StructuredPhasesConfig;
}

/** A configured kind of meeting: when it happens, who comes, how much it may say. */
export interface MeetingType {
  name: string;
  frequency: MeetingFrequency | null;
  trigger: string | null;
  /** Participant references: department name, agent name, `all`, an agent id, or a context key. */
  participants: string[];
  durationTokens: number;
  protocolConfig: MeetingProtocolConfig;
  /** Project of the tasks its action items become (a reference); null: the `Meetings` project. */
  project: string | null;
  /** Topic channel its contributions are posted to. */
  channel: string;
  /** Where it was configured: `company`, or `department:<name>`. */
  source: string;
}

/** The topic channel contributions go to unless the type names another. */
export const DEFAULT_MEETING_CHANNEL = '#all-hands';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Problems {
  readonly list: string[] = [];
  constructor(private readonly where: string) {}
  add(message: string): void {
    this.list.push(`${this.where}: ${message}`);
  }
}

function positiveInt(value: unknown, fallback: number, field: string, problems: Problems): number {
  if (value === undefined || value === null) {
    return fallback;
  }
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    problems.add(`${field} must be an integer greater than 0`);
    return fallback;
  }
  return value;
}

function bool(value: unknown, fallback: boolean, field: string, problems: Problems): boolean {
  if (value === undefined || value === null) {
    return fallback;
  }
  if (typeof value !== 'boolean') {
    problems.add(`${field} must be a boolean`);
    return fallback;
  }
  return value;
}

function section(raw: Json, key: string, problems: Problems): Json {
  const value = raw[key];
  if (value === undefined || value === null) {
    return {};
  }
  if (!isObject(value)) {
    problems.add(`protocol_config.${key} must be an object`);
    return {};
  }
  return value;
}

function parseProtocolConfig(value: unknown, problems: Problems): MeetingProtocolConfig {
  const raw = isObject(value) ? value : {};
  if (value !== undefined && value !== null && !isObject(value)) {
    problems.add('protocol_config must be an object');
  }
  let protocol: MeetingProtocol = 'round_robin';
  if (raw.protocol !== undefined && raw.protocol !== null) {
    if ((MEETING_PROTOCOLS as readonly unknown[]).includes(raw.protocol)) {
      protocol = raw.protocol as MeetingProtocol;
    } else {
      problems.add(`protocol_config.protocol must be one of ${MEETING_PROTOCOLS.join(', ')}`);
    }
  }
  const rr = section(raw, 'round_robin', problems);
  const pp = section(raw, 'position_papers', problems);
  const sp = section(raw, 'structured_phases', problems);
  const synthesizer = pp.synthesizer ?? 'meeting_leader';
  if (typeof synthesizer !== 'string' || synthesizer.trim() === '') {
    problems.add('protocol_config.position_papers.synthesizer must be a non-blank string');
  }
  return {
    protocol,
    autoCreateTasks: bool(raw.auto_create_tasks, true, 'protocol_config.auto_create_tasks', problems),
    roundRobin: {
      maxTurnsPerAgent: positiveInt(rr.max_turns_per_agent, 2, 'round_robin.max_turns_per_agent', problems),
      maxTotalTurns: positiveInt(rr.max_total_turns, 16, 'round_robin.max_total_turns', problems),
      leaderSummarizes: bool(rr.leader_summarizes, true, 'round_robin.leader_summarizes', problems),
    },
    positionPapers: {
      maxTokensPerPosition: positiveInt(pp.max_tokens_per_position, 300, 'max_tokens_per_position', problems),
      synthesizer: typeof synthesizer === 'string' ? synthesizer.trim() : 'meeting_leader',
    },
    structuredPhases: {
      skipDiscussionIfNoConflicts: bool(
        sp.skip_discussion_if_no_conflicts,
        true,
        'structured_phases.skip_discussion_if_no_conflicts',
        problems,
      ),
      maxDiscussionTokens: positiveInt(sp.max_discussion_tokens, 1000, 'max_discussion_tokens', problems),
    },
  };
}

function optionalText(raw: Json, key: string, problems: Problems): string | null {
  const value = raw[key];
  if (value === undefined || value === null) {
    return null;
  }
  if (typeof value !== 'string' || value.trim() === '' || value.length > MEETING_LIMITS.maxNameChars) {
    problems.add(`${key} must be a non-blank string of at most ${MEETING_LIMITS.maxNameChars} characters`);
    return null;
  }
  return value.trim();
}

function parseOne(value: unknown, where: string, source: string, defaultParticipants: string[]): MeetingType {
  const problems = new Problems(where);
  const raw = isObject(value) ? value : {};
  if (!isObject(value)) {
    problems.add('must be an object');
  }
  const name = optionalText(raw, 'name', problems);
  if (name === null && isObject(value) && raw.name === undefined) {
    problems.add('name is required');
  }
  const trigger = optionalText(raw, 'trigger', problems);
  let frequency: MeetingFrequency | null = null;
  if (raw.frequency !== undefined && raw.frequency !== null) {
    if (typeof raw.frequency === 'string' && raw.frequency in MEETING_FREQUENCY_SECONDS) {
      frequency = raw.frequency as MeetingFrequency;
    } else {
      problems.add(`frequency must be one of ${MEETING_FREQUENCIES.join(', ')}`);
    }
  }
  if ((frequency === null) === (trigger === null) && problems.list.length === 0) {
    problems.add('exactly one of frequency and trigger must be set');
  }
  let participants = defaultParticipants;
  if (raw.participants !== undefined && raw.participants !== null) {
    if (
      !Array.isArray(raw.participants) ||
      raw.participants.some((p) => typeof p !== 'string' || p.trim() === '' || p.length > MEETING_LIMITS.maxNameChars)
    ) {
      problems.add('participants must be a list of non-blank names');
    } else {
      participants = (raw.participants as string[]).map((p) => p.trim());
    }
  }
  if (participants.length === 0) {
    problems.add('participants must not be empty');
  }
  const durationTokens = positiveInt(
    raw.duration_tokens,
    MEETING_LIMITS.defaultDurationTokens,
    'duration_tokens',
    problems,
  );
  const protocolConfig = parseProtocolConfig(raw.protocol_config, problems);
  const channel = optionalText(raw, 'channel', problems) ?? DEFAULT_MEETING_CHANNEL;
  const project = optionalText(raw, 'project', problems);
  if (problems.list.length > 0) {
    throw new ConflictError(
      `Invalid meeting type configuration: ${problems.list.join('; ')}`,
      ErrorCode.MeetingTypesInvalid,
    );
  }
  return {
    name: name as string,
    frequency,
    trigger,
    participants,
    durationTokens,
    protocolConfig,
    project,
    channel,
    source,
  };
}

/**
 * The company's meeting types (the `coordination.meeting_types` list). A malformed entry refuses the
 * whole list with 409 (4024): meetings never run from a half-understood configuration.
 */
export function parseCompanyMeetingTypes(value: unknown): MeetingType[] {
  if (value === null || value === undefined) {
    return [];
  }
  if (!Array.isArray(value)) {
    throw new ConflictError('Invalid meeting type configuration: must be a list', ErrorCode.MeetingTypesInvalid);
  }
  return value.map((entry, i) => parseOne(entry, `meeting_types[${i}]`, 'company', []));
}

/**
 * A department's meeting types: the `meetings` list in its ceremony policy's `strategy_config`.
 * Participants default to the department itself.
 */
export function parseDepartmentMeetingTypes(department: string, policy: unknown): MeetingType[] {
  if (!isObject(policy) || !isObject(policy.strategy_config)) {
    return [];
  }
  const meetings = policy.strategy_config.meetings;
  if (meetings === undefined || meetings === null) {
    return [];
  }
  if (!Array.isArray(meetings)) {
    throw new ConflictError(
      `Invalid meeting type configuration: ceremony policy of ${department}: strategy_config.meetings must be a list`,
      ErrorCode.MeetingTypesInvalid,
    );
  }
  return meetings.map((entry, i) =>
    parseOne(entry, `ceremony policy of ${department}: meetings[${i}]`, `department:${department}`, [department]),
  );
}

/** All types, the company's first; a later type with an already-used name (case-insensitive) is refused. */
export function mergeMeetingTypes(lists: readonly MeetingType[][]): MeetingType[] {
  const seen = new Set<string>();
  const out: MeetingType[] = [];
  for (const type of lists.flat()) {
    const key = type.name.toLowerCase();
    if (seen.has(key)) {
      throw new ConflictError(
        `Invalid meeting type configuration: the name "${type.name}" is used twice`,
        ErrorCode.MeetingTypesInvalid,
      );
    }
    seen.add(key);
    out.push(type);
  }
  return out;
}

/** Trigger context: string or string-list values. */
export type MeetingContext = Record<string, string | string[]>;

/** Checks a trigger's event name and context against the limits (400, 2090). */
export function assertTriggerRequest(
  eventName: unknown,
  context: unknown,
): { eventName: string; context: MeetingContext } {
  const fail = (message: string): never => {
    throw new ValidationError(message, ErrorCode.MeetingTriggerInvalid);
  };
  if (typeof eventName !== 'string' || eventName.trim() === '') {
    fail('event_name: must not be blank');
  }
  const name = (eventName as string).trim();
  if (name.length > MEETING_LIMITS.maxNameChars) {
    fail(`event_name: at most ${MEETING_LIMITS.maxNameChars} characters`);
  }
  if (context === undefined || context === null) {
    return { eventName: name, context: {} };
  }
  if (!isObject(context)) {
    fail('context: must be an object');
  }
  const entries = Object.entries(context as Json);
  if (entries.length > MEETING_LIMITS.maxContextKeys) {
    fail(`context: at most ${MEETING_LIMITS.maxContextKeys} keys`);
  }
  const out: MeetingContext = {};
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > MEETING_LIMITS.maxContextKeyChars) {
      fail(`context: keys are 1 to ${MEETING_LIMITS.maxContextKeyChars} characters`);
    }
    if (typeof value === 'string') {
      if (value.length > MEETING_LIMITS.maxContextValueChars) {
        fail(`context.${key}: at most ${MEETING_LIMITS.maxContextValueChars} characters`);
      }
      out[key] = value;
    } else if (Array.isArray(value)) {
      if (value.length > MEETING_LIMITS.maxContextListItems) {
        fail(`context.${key}: at most ${MEETING_LIMITS.maxContextListItems} items`);
      }
      if (value.some((v) => typeof v !== 'string' || v.length > MEETING_LIMITS.maxContextValueChars)) {
        fail(`context.${key}: items are strings of at most ${MEETING_LIMITS.maxContextValueChars} characters`);
      }
      out[key] = [...(value as string[])];
    } else {
      fail(`context.${key}: must be a string or a list of strings`);
    }
  }
  return { eventName: name, context: out };
}

/** A participant as resolution sees the roster. */
export interface RosterMember {
  id: string;
  name: string;
  department: string;
  status: string;
}

/**
 * Participant references in order, through the trigger context first (a key's value names agents),
 * then the roster: `all` (every active agent), a department name, an agent name, or an agent id.
 * Only active agents take part; each once, in first-mention order. The first is the leader.
 */
export function resolveParticipants(
  refs: readonly string[],
  context: MeetingContext,
  roster: readonly RosterMember[],
): string[] {
  const active = roster.filter((m) => m.status === 'active');
  const out: string[] = [];
  const add = (members: readonly RosterMember[]): void => {
    for (const m of members) {
      if (!out.includes(m.id)) {
        out.push(m.id);
      }
    }
  };
  const byRef = (ref: string): RosterMember[] => {
    const key = ref.trim().toLowerCase();
    if (key === 'all') {
      return active;
    }
    const agent = active.find((m) => m.id === ref.trim() || m.name.toLowerCase() === key);
    if (agent) {
      return [agent];
    }
    return active.filter((m) => m.department.toLowerCase() === key);
  };
  for (const ref of refs) {
    const fromContext = context[ref];
    if (fromContext !== undefined) {
      for (const value of Array.isArray(fromContext) ? fromContext : [fromContext]) {
        add(byRef(value));
      }
      continue;
    }
    add(byRef(ref));
  }
  return out;
}

/** Whether a scheduled type is due: never held, or its last start is at least one interval ago. */
export function meetingDue(frequency: MeetingFrequency, lastStartedAt: Date | null, now: Date): boolean {
  if (lastStartedAt === null) {
    return true;
  }
  return now.getTime() - lastStartedAt.getTime() >= MEETING_FREQUENCY_SECONDS[frequency] * 1000;
}
