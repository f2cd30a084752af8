/** One fact a module announces: who listens (channel) and what happened (event_type + payload). */
export interface DomainEvent<P extends object = Record<string, unknown>> {
  /** e.g. 'tasks', 'agents', 'budget', 'approvals', 'system'; internal channels start with 'internal.'. */
  channel: string;
  /** `<noun>.<verb>`-style name, e.g. 'task.status_changed'. */
  event_type: string;
  payload: P;
  /** ISO 8601; stamped by publish when the publisher leaves it out. */
  timestamp: string;
}

/** An event as listeners see it: where it came from and its id (the same on every replica). */
export interface ReceivedEvent extends DomainEvent {
  origin: 'local' | 'remote';
  event_id: string;
}

export type PublishableEvent = Omit<DomainEvent, 'timestamp'> & { timestamp?: string };

export type EventListener = (event: ReceivedEvent) => void;

/**
 * The domain event bus every feature module publishes to. Delivery to in-process listeners happens
 * inside publish; on Postgres the event also reaches the other replicas (origin 'remote' there).
 */
export abstract class EventBus {
  abstract publish(event: PublishableEvent): Promise<void>;
  /** Registers a listener; the returned function unsubscribes it. */
  abstract subscribe(listener: EventListener): () => void;
}

/** Channels for service-to-service coordination; never delivered to WebSocket clients. */
export const INTERNAL_CHANNEL_PREFIX = 'internal.';

/** Column widths of `domain_events`: longer names could not cross replicas. */
export const MAX_CHANNEL_LENGTH = 64;
export const MAX_EVENT_TYPE_LENGTH = 128;

export function isInternalChannel(channel: string): boolean {
  return channel.startsWith(INTERNAL_CHANNEL_PREFIX);
}

/**
 * Publishes the announcement of a change that is already committed: a bus failure is logged, not
 * thrown, so it cannot turn a successful write into an error response.
 */
export async function announce(
  bus: EventBus,
  log: { error(obj: object, msg: string): void },
  event: PublishableEvent,
): Promise<void> {
  try {
    await bus.publish(event);
  } catch (error) {
    log.error({ err: error, channel: event.channel, event_type: event.event_type }, 'events.announcement.failed');
  }
}
