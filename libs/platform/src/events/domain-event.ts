import { type CatalogueEvent, type ChannelName, type EventTypeOf, isEvent } from '@app/domain';

/**
 * Any event the bus carries, catalogued or not: one another replica wrote (a newer build's, or a
 * row written by hand) reaches listeners too, so what they receive is typed by the envelope only.
 */
export interface DomainEvent {
  /** e.g. 'tasks', 'agents', 'budget'; internal channels start with 'internal.'. */
  channel: string;
  /** `<noun>.<verb>`-style name, e.g. 'task.status_changed'. */
  event_type: string;
  payload: Record<string, unknown>;
  /** ISO 8601; stamped by publish when the publisher leaves it out. */
  timestamp: string;
}

/** An event as listeners see it: where it came from and its id (the same on every replica). */
export interface ReceivedEvent extends DomainEvent {
  origin: 'local' | 'remote';
  event_id: string;
}

/** A received event narrowed to the catalogue (by isEvent or subscribeTo). */
export type TypedReceivedEvent<
  C extends ChannelName = ChannelName,
  T extends EventTypeOf<C> = EventTypeOf<C>,
> = ReceivedEvent & CatalogueEvent<C, T>;

/** A catalogued event as a module publishes it; publish stamps the timestamp when it is left out. */
export type PublishableEvent<
  C extends ChannelName = ChannelName,
  T extends EventTypeOf<C> = EventTypeOf<C>,
> = CatalogueEvent<C, T> & { timestamp?: string };

/** Any envelope the bus itself accepts: the catalogue is enforced on EventBus, not on the transport. */
export type RawEvent = Omit<DomainEvent, 'timestamp'> & { timestamp?: string };

export type EventListener = (event: ReceivedEvent) => void;

/**
 * The domain event bus every feature module publishes to. Delivery to in-process listeners happens
 * inside publish; on Postgres the event also reaches the other replicas (origin 'remote' there).
 */
export abstract class EventBus {
  abstract publish(event: PublishableEvent): Promise<void>;
  /** Registers a listener of every event; the returned function unsubscribes it. */
  abstract subscribe(listener: EventListener): () => void;
}

/** Column widths of `domain_events`: longer names could not cross replicas. */
export const MAX_CHANNEL_LENGTH = 64;
export const MAX_EVENT_TYPE_LENGTH = 128;

/**
 * Registers a listener of one channel's catalogued events, typed by the catalogue (narrow further
 * on event_type); events of other channels, and types the catalogue does not list, pass it by.
 */
export function subscribeTo<C extends ChannelName>(
  bus: EventBus,
  channel: C,
  listener: (event: TypedReceivedEvent<C>) => void,
): () => void {
  return bus.subscribe((event) => {
    if (isEvent(event, channel)) {
      listener(event);
    }
  });
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
