import { Channel, type ChannelName } from './channels';
import type {
  AgentChangedPayload,
  AgentLevelChangedPayload,
  AgentNameReleasedPayload,
  AgentOffboardingPayload,
  AgentStatusChangedPayload,
  ApprovalChangedPayload,
  ArtifactChangedPayload,
  BudgetAlertPayload,
  RiskAlertPayload,
  RunHeldPayload,
  CompanyChangedPayload,
  CoordinationEventPayload,
  CostRecordedPayload,
  HiringRequestChangedPayload,
  OnboardingStepPayload,
  DepartmentCreatedPayload,
  DepartmentUpdatedPayload,
  MeetingChangedPayload,
  MessageSentPayload,
  PersonalityChangedPayload,
  ProjectCreatedPayload,
  ProviderChangedPayload,
  SessionsEvictedPayload,
  SettingChangedPayload,
  BackupRestoredPayload,
  ToolServerChangedPayload,
  MemoryChangedPayload,
  SetupCompletedPayload,
  TaskChangedPayload,
} from './event-payloads';

/** A channel whose events its module declares here when it starts publishing them. */
type NoEventsYet = Record<never, never>;

/**
 * Every event the service publishes: channel -> event_type -> payload. Publishing is typed by it
 * (an unknown channel or type, or a wrong payload, does not compile) and listeners narrow by it.
 */
export interface EventCatalogue {
  [Channel.Tasks]: {
    'task.created': TaskChangedPayload;
    'task.updated': TaskChangedPayload;
    'task.status_changed': TaskChangedPayload;
    'task.deleted': TaskChangedPayload;
    coordination_started: CoordinationEventPayload;
    coordination_completed: CoordinationEventPayload;
    coordination_failed: CoordinationEventPayload;
  };
  [Channel.Agents]: {
    'agent.hired': AgentChangedPayload;
    'agent.updated': AgentChangedPayload;
    'agent.status_changed': AgentStatusChangedPayload;
    'agent.fired': AgentOffboardingPayload;
    'agent.offboarded': AgentOffboardingPayload;
    'agent.promoted': AgentLevelChangedPayload;
    'agent.demoted': AgentLevelChangedPayload;
    'agent.name_released': AgentNameReleasedPayload;
    'agent.onboarding_step': OnboardingStepPayload;
    'agent.onboarded': AgentChangedPayload;
    'hiring.request_changed': HiringRequestChangedPayload;
  };
  [Channel.Budget]: {
    'cost.recorded': CostRecordedPayload;
    'alert.raised': BudgetAlertPayload;
    'risk.alert.raised': RiskAlertPayload;
    'run.held': RunHeldPayload;
    'run.released': RunHeldPayload;
  };
  [Channel.Messages]: {
    'message.sent': MessageSentPayload;
  };
  [Channel.System]: NoEventsYet;
  [Channel.Approvals]: {
    'approval.created': ApprovalChangedPayload;
    'approval.decided': ApprovalChangedPayload;
    'approval.expired': ApprovalChangedPayload;
    'approval.escalated': ApprovalChangedPayload;
  };
  [Channel.Meetings]: {
    'meeting.started': MeetingChangedPayload;
    'meeting.completed': MeetingChangedPayload;
    'meeting.failed': MeetingChangedPayload;
  };
  [Channel.Artifacts]: {
    'artifact.created': ArtifactChangedPayload;
    'artifact.deleted': ArtifactChangedPayload;
    'artifact.content_uploaded': ArtifactChangedPayload;
  };
  [Channel.Projects]: {
    'project.created': ProjectCreatedPayload;
  };
  [Channel.Company]: {
    'company.created': CompanyChangedPayload;
    'company.updated': CompanyChangedPayload;
    'company.setup_completed': SetupCompletedPayload;
    'personality.created': PersonalityChangedPayload;
    'personality.updated': PersonalityChangedPayload;
    'personality.deleted': PersonalityChangedPayload;
  };
  [Channel.Departments]: {
    'department.created': DepartmentCreatedPayload;
    'department.updated': DepartmentUpdatedPayload;
  };
  [Channel.Providers]: {
    'provider.created': ProviderChangedPayload;
    'provider.updated': ProviderChangedPayload;
    'provider.deleted': ProviderChangedPayload;
    'provider.models_changed': ProviderChangedPayload;
  };
  [Channel.Auth]: {
    'auth.sessions.evicted': SessionsEvictedPayload;
  };
  [Channel.Settings]: {
    'setting.changed': SettingChangedPayload;
  };
  [Channel.Backup]: {
    'backup.restored': BackupRestoredPayload;
  };
  [Channel.Tools]: {
    'tool_server.changed': ToolServerChangedPayload;
  };
  [Channel.Memory]: {
    'memory.created': MemoryChangedPayload;
    'memory.updated': MemoryChangedPayload;
    'memory.deleted': MemoryChangedPayload;
    'memory.fact_created': MemoryChangedPayload;
    'memory.fact_deleted': MemoryChangedPayload;
    /** A re-embedding switched the stored vectors to another embedder (`id`: its marker). */
    'memory.reembedded': MemoryChangedPayload;
  };
}

/** The event types of a channel (of every channel in C, when C is a union). */
export type EventTypeOf<C extends ChannelName> = C extends ChannelName ? keyof EventCatalogue[C] & string : never;

/** The payload of one event type. */
export type EventPayload<C extends ChannelName, T extends EventTypeOf<C>> = EventCatalogue[C][T];

/** The events of one channel, keyed by type: indexing it with a generic type keeps the pairing. */
export type ChannelEvents<C extends ChannelName> = {
  [T in EventTypeOf<C>]: { channel: C; event_type: T; payload: EventCatalogue[C][T] };
};

/**
 * A catalogued event as published: a discriminated union over channel and event_type (all of them
 * by default; those of the given channels and types otherwise).
 */
export type CatalogueEvent<C extends ChannelName = ChannelName, T extends EventTypeOf<C> = EventTypeOf<C>> = {
  [K in C]: ChannelEvents<K>[T & EventTypeOf<K>];
}[C];

/** The runtime copy of the catalogue's event types; the compiler keeps it equal to the types above. */
const EVENT_TYPES: { readonly [C in ChannelName]: { readonly [T in EventTypeOf<C>]: true } } = {
  [Channel.Tasks]: {
    'task.created': true,
    'task.updated': true,
    'task.status_changed': true,
    'task.deleted': true,
    coordination_started: true,
    coordination_completed: true,
    coordination_failed: true,
  },
  [Channel.Agents]: {
    'agent.hired': true,
    'agent.updated': true,
    'agent.status_changed': true,
    'agent.fired': true,
    'agent.offboarded': true,
    'agent.promoted': true,
    'agent.demoted': true,
    'agent.name_released': true,
    'agent.onboarding_step': true,
    'agent.onboarded': true,
    'hiring.request_changed': true,
  },
  [Channel.Budget]: {
    'cost.recorded': true,
    'alert.raised': true,
    'risk.alert.raised': true,
    'run.held': true,
    'run.released': true,
  },
  [Channel.Messages]: { 'message.sent': true },
  [Channel.System]: {},
  [Channel.Approvals]: {
    'approval.created': true,
    'approval.decided': true,
    'approval.expired': true,
    'approval.escalated': true,
  },
  [Channel.Meetings]: { 'meeting.started': true, 'meeting.completed': true, 'meeting.failed': true },
  [Channel.Artifacts]: { 'artifact.created': true, 'artifact.deleted': true, 'artifact.content_uploaded': true },
  [Channel.Projects]: { 'project.created': true },
  [Channel.Company]: {
    'company.created': true,
    'company.updated': true,
    'company.setup_completed': true,
    'personality.created': true,
    'personality.updated': true,
    'personality.deleted': true,
  },
  [Channel.Departments]: { 'department.created': true, 'department.updated': true },
  [Channel.Providers]: {
    'provider.created': true,
    'provider.updated': true,
    'provider.deleted': true,
    'provider.models_changed': true,
  },
  [Channel.Auth]: { 'auth.sessions.evicted': true },
  [Channel.Settings]: { 'setting.changed': true },
  [Channel.Backup]: { 'backup.restored': true },
  [Channel.Tools]: { 'tool_server.changed': true },
  [Channel.Memory]: {
    'memory.created': true,
    'memory.updated': true,
    'memory.deleted': true,
    'memory.fact_created': true,
    'memory.fact_deleted': true,
    'memory.reembedded': true,
  },
};

/** The catalogued event types of a channel, in declaration order. */
export function eventTypesOf<C extends ChannelName>(channel: C): EventTypeOf<C>[] {
  return Object.keys(EVENT_TYPES[channel]) as EventTypeOf<C>[];
}

/** Whether a channel and event type (as read from the wire or the database) are catalogued. */
export function isCatalogued(channel: string, eventType: string): boolean {
  return Object.hasOwn(EVENT_TYPES, channel) && Object.hasOwn(EVENT_TYPES[channel as ChannelName], eventType);
}

/** What the guard needs of an event: its channel and type, as any envelope carries them. */
export interface EventHead {
  channel: string;
  event_type: string;
}

/**
 * Narrows an event of unknown type (a listener's, or one read from another replica) to a catalogued
 * one: its channel, and its type when given, else any type the catalogue lists for the channel. The
 * payload is trusted to be what the catalogue says: every publisher is typed by it.
 */
export function isEvent<E extends EventHead, C extends ChannelName, T extends EventTypeOf<C> = EventTypeOf<C>>(
  event: E,
  channel: C,
  eventType?: T,
): event is E & CatalogueEvent<C, T> {
  if (event.channel !== channel) {
    return false;
  }
  return eventType === undefined ? isCatalogued(channel, event.event_type) : event.event_type === eventType;
}
