import type { Logger } from 'pino';

import { Channel } from '@app/domain';

import { announce, type EventBus, type PublishableEvent, subscribeTo, type TypedReceivedEvent } from './domain-event';
import { DomainEventBus } from './domain-event-bus';

function quietLogger(): Logger {
  return { warn: jest.fn(), info: jest.fn(), debug: jest.fn(), error: jest.fn() } as unknown as Logger;
}

const taskChange = {
  task_id: 't1',
  status: 'cancelled',
  previous_status: 'in_progress',
  requested_by: 'alice',
  version: 3,
  task: { id: 't1' },
} as const;

describe('subscribeTo', () => {
  it('should hand over only the catalogued events of its channel, typed, when they are published', async () => {
    const bus = new DomainEventBus(quietLogger());
    const seen: Array<TypedReceivedEvent<typeof Channel.Tasks>> = [];
    const off = subscribeTo(bus, Channel.Tasks, (event) => seen.push(event));
    await bus.publish({ channel: 'agents', event_type: 'agent.hired', payload: { agent: { id: 'a1' } } });
    await bus.publish({ channel: 'tasks', event_type: 'task.tick', payload: {} });
    await bus.publish({ channel: Channel.Tasks, event_type: 'task.deleted', payload: { ...taskChange } });
    off();
    await bus.publish({ channel: Channel.Tasks, event_type: 'task.deleted', payload: { ...taskChange } });
    expect(seen).toHaveLength(1);
    const [event] = seen;
    // Narrowing on event_type needs no cast: the payload is the catalogue's.
    expect(event.event_type === 'task.deleted' ? event.payload.previous_status : null).toBe('in_progress');
    expect(event).toMatchObject({ origin: 'local', payload: taskChange });
  });

  it('should hand over remote events of its channel when they are catalogued', () => {
    const bus = new DomainEventBus(quietLogger());
    const seen: string[] = [];
    subscribeTo(bus, Channel.Auth, (event) => seen.push(event.payload.session_ids.join(',')));
    const base = { timestamp: '2026-01-01T00:00:00.000Z', origin: 'remote' as const, event_id: 'e1' };
    bus.deliverRemote({ ...base, channel: 'internal.auth', event_type: 'auth.sessions.renamed', payload: {} });
    bus.deliverRemote({
      ...base,
      channel: 'internal.auth',
      event_type: 'auth.sessions.evicted',
      payload: { session_ids: ['s1', 's2'], user_id: null },
    });
    expect(seen).toEqual(['s1,s2']);
  });
});

describe('announce', () => {
  it('should log, not throw, when the bus refuses the event', async () => {
    const log = { error: jest.fn() };
    const bus: EventBus = {
      publish: () => Promise.reject(new Error('bus down')),
      subscribe: () => () => undefined,
    };
    await expect(
      announce(bus, log, { channel: Channel.Company, event_type: 'company.setup_completed', payload: { steps: [] } }),
    ).resolves.toBeUndefined();
    expect(log.error).toHaveBeenCalledWith(
      expect.objectContaining({ channel: 'company', event_type: 'company.setup_completed' }),
      'events.announcement.failed',
    );
  });

  it('should accept only catalogued events at compile time when modules publish', () => {
    const published: PublishableEvent[] = [];
    const bus: EventBus = {
      publish: (event) => {
        published.push(event);
        return Promise.resolve();
      },
      subscribe: () => () => undefined,
    };
    const log = { error: jest.fn() };
    void announce(bus, log, { channel: Channel.Departments, event_type: 'department.created', payload: { name: 'x' } });
    // @ts-expect-error an event type the channel does not carry
    void announce(bus, log, { channel: Channel.Departments, event_type: 'department.renamed', payload: { name: 'x' } });
    // @ts-expect-error a channel that is not catalogued
    void bus.publish({ channel: 'internal.cache', event_type: 'cache.invalidated', payload: {} });
    // @ts-expect-error a payload missing its required fields
    void bus.publish({ channel: Channel.Departments, event_type: 'department.updated', payload: { name: 'x' } });
    expect(published.map((e) => e.event_type)).toEqual([
      'department.created',
      'department.renamed',
      'cache.invalidated',
      'department.updated',
    ]);
  });
});
