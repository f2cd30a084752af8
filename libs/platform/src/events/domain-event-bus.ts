import { randomUUID } from 'node:crypto';

import type { Logger } from 'pino';

import { ErrorCode, ValidationError } from '@app/domain';

import {
  EventBus,
  type EventListener,
  MAX_CHANNEL_LENGTH,
  MAX_EVENT_TYPE_LENGTH,
  type RawEvent,
  type ReceivedEvent,
} from './domain-event';

/**
 * Carries locally published events to the other replicas (the Postgres bridge). forward is called
 * in publish order and must write the events in that order.
 */
export interface EventRelay {
  forward(event: ReceivedEvent): Promise<void>;
}

/**
 * The in-process bus. publish delivers to every local listener before it resolves, and hands the
 * event to the relay (when one is attached) without waiting for it: the relay keeps the events of
 * this replica in publish order and the bus tracks them until they are written, so drain() at
 * shutdown still waits for them. Neither a failing listener nor a failing relay ever reaches the
 * publisher: both are logged, since a feature's state change has already happened by the time it
 * announces it. The bus checks the envelope only: modules publish through EventBus, typed by the
 * catalogue, while the bus itself (and tests driving it) may carry any well-formed event.
 */
export class DomainEventBus extends EventBus {
  private readonly listeners = new Set<EventListener>();
  private readonly inFlight = new Set<Promise<void>>();
  private relay: EventRelay | null = null;

  constructor(private readonly log: Logger) {
    super();
  }

  /** Attaches (or, with null, detaches) the cross-replica relay. */
  setRelay(relay: EventRelay | null): void {
    this.relay = relay;
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  publish(input: RawEvent): Promise<void> {
    let event: ReceivedEvent;
    try {
      event = toReceivedEvent(input);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    this.deliver(event);
    const relay = this.relay;
    if (relay) {
      const pending = relay
        .forward(event)
        .catch((error: unknown) => {
          this.log.warn(
            { channel: event.channel, event_type: event.event_type, event_id: event.event_id, err: error },
            'communication.relay.forward_failed',
          );
        })
        .finally(() => this.inFlight.delete(pending));
      this.inFlight.add(pending);
    }
    return Promise.resolve();
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Delivery entry point of events that arrived from another replica. */
  deliverRemote(event: ReceivedEvent): void {
    this.deliver(event);
  }

  /** Waits (bounded) for relay work still under way, so shutdown does not cut publishes in half. */
  async drain(timeoutMs: number): Promise<void> {
    if (this.inFlight.size === 0) {
      return;
    }
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
      timer.unref();
    });
    try {
      await Promise.race([Promise.allSettled([...this.inFlight]).then(() => undefined), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  private deliver(event: ReceivedEvent): void {
    // A snapshot: a listener that unsubscribes (or subscribes another) mid-delivery must not skew the round.
    for (const listener of [...this.listeners]) {
      try {
        const result: unknown = listener(event);
        if (result instanceof Promise) {
          result.catch((error: unknown) => this.listenerFailed(event, error));
        }
      } catch (error) {
        this.listenerFailed(event, error);
      }
    }
  }

  private listenerFailed(event: ReceivedEvent, error: unknown): void {
    this.log.warn(
      { channel: event.channel, event_type: event.event_type, origin: event.origin, err: error },
      'communication.listener.failed',
    );
  }
}

/** Validates a published event and stamps what the publisher may leave out (timestamp, id). */
export function toReceivedEvent(input: RawEvent): ReceivedEvent {
  const { channel, event_type: eventType, payload, timestamp } = input;
  if (typeof channel !== 'string' || channel.length === 0 || channel.length > MAX_CHANNEL_LENGTH) {
    throw new ValidationError(`event channel must be 1-${MAX_CHANNEL_LENGTH} characters`, ErrorCode.EventMalformed);
  }
  if (typeof eventType !== 'string' || eventType.length === 0 || eventType.length > MAX_EVENT_TYPE_LENGTH) {
    throw new ValidationError(`event_type must be 1-${MAX_EVENT_TYPE_LENGTH} characters`, ErrorCode.EventMalformed);
  }
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    throw new ValidationError('event payload must be a JSON object', ErrorCode.EventMalformed);
  }
  if (timestamp !== undefined && (typeof timestamp !== 'string' || Number.isNaN(Date.parse(timestamp)))) {
    throw new ValidationError('event timestamp must be an ISO 8601 date-time', ErrorCode.EventMalformed);
  }
  return {
    channel,
    event_type: eventType,
    payload,
    timestamp: timestamp ?? new Date().toISOString(),
    origin: 'local',
    event_id: randomUUID(),
  };
}
