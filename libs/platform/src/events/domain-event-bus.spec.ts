import type { Logger } from 'pino';

import { ValidationError } from '@app/domain';

import type { ReceivedEvent } from './domain-event';
import { DomainEventBus, type EventRelay, toReceivedEvent } from './domain-event-bus';

function fakeLogger(): Logger & { warn: jest.Mock } {
  return { warn: jest.fn(), info: jest.fn(), debug: jest.fn(), error: jest.fn() } as unknown as Logger & {
    warn: jest.Mock;
  };
}

const event = { channel: 'tasks', event_type: 'task.created', payload: { id: 't1' } };

describe('DomainEventBus', () => {
  it('should deliver to every listener before publish resolves when no relay is attached', async () => {
    const bus = new DomainEventBus(fakeLogger());
    const a: ReceivedEvent[] = [];
    const b: ReceivedEvent[] = [];
    bus.subscribe((e) => a.push(e));
    bus.subscribe((e) => b.push(e));
    const published = bus.publish(event);
    expect(a).toHaveLength(1);
    await published;
    expect(a[0]).toMatchObject({ ...event, origin: 'local' });
    expect(b[0]).toBe(a[0]);
    expect(Date.parse(a[0].timestamp)).not.toBeNaN();
    expect(a[0].event_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('should keep the publisher timestamp when one is given', async () => {
    const bus = new DomainEventBus(fakeLogger());
    const seen: ReceivedEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    await bus.publish({ ...event, timestamp: '2026-01-02T03:04:05.000Z' });
    expect(seen[0].timestamp).toBe('2026-01-02T03:04:05.000Z');
  });

  it('should stop delivering when a listener unsubscribes', async () => {
    const bus = new DomainEventBus(fakeLogger());
    const seen: ReceivedEvent[] = [];
    const off = bus.subscribe((e) => seen.push(e));
    await bus.publish(event);
    off();
    await bus.publish(event);
    expect(seen).toHaveLength(1);
    expect(bus.listenerCount).toBe(0);
  });

  it('should log and carry on when a listener throws or rejects', async () => {
    const log = fakeLogger();
    const bus = new DomainEventBus(log);
    const seen: ReceivedEvent[] = [];
    bus.subscribe(() => {
      throw new Error('boom');
    });
    bus.subscribe(() => Promise.reject(new Error('async boom')) as unknown as void);
    bus.subscribe((e) => seen.push(e));
    await expect(bus.publish(event)).resolves.toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(1);
    expect(log.warn).toHaveBeenCalledTimes(2);
    expect(log.warn.mock.calls[0][1]).toBe('communication.listener.failed');
  });

  it('should forward to the relay and swallow relay failures when one is attached', async () => {
    const log = fakeLogger();
    const bus = new DomainEventBus(log);
    const forwarded: ReceivedEvent[] = [];
    const relay: EventRelay = {
      forward: (e) => {
        forwarded.push(e);
        return forwarded.length === 1 ? Promise.resolve() : Promise.reject(new Error('db down'));
      },
    };
    bus.setRelay(relay);
    await bus.publish(event);
    await expect(bus.publish(event)).resolves.toBeUndefined();
    await bus.drain(1000);
    expect(forwarded).toHaveLength(2);
    expect(log.warn.mock.calls[0][1]).toBe('communication.relay.forward_failed');
  });

  it('should resolve publish without waiting for the relay, which still receives events in publish order', async () => {
    const bus = new DomainEventBus(fakeLogger());
    const forwarded: string[] = [];
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    bus.setRelay({
      forward: (e) => {
        forwarded.push(e.event_type);
        return gate;
      },
    });

    await bus.publish({ ...event, event_type: 'first' });
    await bus.publish({ ...event, event_type: 'second' });

    expect(forwarded).toEqual(['first', 'second']);
    let drained = false;
    const draining = bus.drain(5000).then(() => (drained = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    release();
    await draining;
    expect(drained).toBe(true);
  });

  it('should deliver remote events to listeners as they are when they arrive from the bridge', () => {
    const bus = new DomainEventBus(fakeLogger());
    const relay = { forward: jest.fn(() => Promise.resolve()) };
    bus.setRelay(relay);
    const seen: ReceivedEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const remote: ReceivedEvent = { ...event, timestamp: 'x', origin: 'remote', event_id: 'e1' };
    bus.deliverRemote(remote);
    expect(seen).toEqual([remote]);
    expect(relay.forward).not.toHaveBeenCalled();
  });

  it('should wait for in-flight relay work, but no longer than the bound, when draining', async () => {
    const bus = new DomainEventBus(fakeLogger());
    let release: () => void = () => undefined;
    bus.setRelay({ forward: () => new Promise<void>((resolve) => (release = resolve)) });
    await bus.publish(event);
    const started = Date.now();
    await bus.drain(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    release();
    await bus.drain(5000);
  });
});

describe('toReceivedEvent', () => {
  it.each([
    [{ ...event, channel: '' }, /channel/],
    [{ ...event, channel: 'c'.repeat(65) }, /channel/],
    [{ ...event, event_type: '' }, /event_type/],
    [{ ...event, event_type: 'e'.repeat(129) }, /event_type/],
    [{ ...event, payload: [] as unknown as Record<string, unknown> }, /payload/],
    [{ ...event, payload: null as unknown as Record<string, unknown> }, /payload/],
    [{ ...event, timestamp: 'yesterday' }, /timestamp/],
  ])('should reject a malformed event when %j is published', (input, message) => {
    expect(() => toReceivedEvent(input)).toThrow(ValidationError);
    expect(() => toReceivedEvent(input)).toThrow(message);
  });
});
