import {
  type CatalogueEvent,
  Channel,
  CLIENT_CHANNELS,
  eventTypesOf,
  INTERNAL_CHANNEL_PREFIX,
  isCatalogued,
  isChannel,
  isEvent,
  isInternalChannel,
} from '@app/domain';

/** An event as it arrives from the wire: typed by its envelope only. */
function wire(channel: string, eventType: string, payload: Record<string, unknown> = {}) {
  return { channel, event_type: eventType, payload, origin: 'remote' as const };
}

describe('event catalogue', () => {
  it('should keep the WebSocket channel names of the wire when listing client channels', () => {
    expect([...CLIENT_CHANNELS].sort()).toEqual([
      'agents',
      'approvals',
      'artifacts',
      'budget',
      'company',
      'departments',
      'meetings',
      'messages',
      'projects',
      'providers',
      'system',
      'tasks',
    ]);
  });

  it('should mark only internal channels internal when a channel is checked', () => {
    const internal = Object.values(Channel).filter(isInternalChannel);
    expect(internal.sort()).toEqual([Channel.Auth, Channel.Backup, Channel.Memory, Channel.Settings, Channel.Tools]);
    expect(internal.every((channel) => channel.startsWith(INTERNAL_CHANNEL_PREFIX))).toBe(true);
    expect(isInternalChannel('internal.cache')).toBe(true);
    expect(isInternalChannel('tasks')).toBe(false);
  });

  it('should recognise catalogued channels only when a name is checked', () => {
    expect(isChannel('tasks')).toBe(true);
    expect(isChannel('internal.auth')).toBe(true);
    expect(isChannel('internal.cache')).toBe(false);
    expect(isChannel('toString')).toBe(false);
  });

  it('should list the event types the services publish on each channel', () => {
    expect(eventTypesOf(Channel.Tasks)).toEqual([
      'task.created',
      'task.updated',
      'task.status_changed',
      'task.deleted',
      'coordination_started',
      'coordination_completed',
      'coordination_failed',
    ]);
    expect(eventTypesOf(Channel.Budget)).toEqual([
      'cost.recorded',
      'alert.raised',
      'risk.alert.raised',
      'run.held',
      'run.released',
    ]);
    expect(eventTypesOf(Channel.Approvals)).toEqual([
      'approval.created',
      'approval.decided',
      'approval.expired',
      'approval.escalated',
    ]);
    for (const channel of Object.values(Channel)) {
      expect(eventTypesOf(channel).every((type) => isCatalogued(channel, type))).toBe(true);
    }
  });

  it.each([
    ['tasks', 'task.created', true],
    ['tasks', 'task.tick', false],
    ['budget', 'task.created', false],
    ['internal.cache', 'cache.invalidated', false],
    ['constructor', 'name', false],
    ['tasks', 'hasOwnProperty', false],
  ])('should answer whether %s / %s is catalogued (%s)', (channel, eventType, known) => {
    expect(isCatalogued(channel, eventType)).toBe(known);
  });

  it('should narrow an event of a catalogued channel and type when the guard holds', () => {
    const event = wire('tasks', 'task.deleted', { task_id: 't1', status: 'cancelled' });
    expect(isEvent(event, Channel.Tasks, 'task.deleted')).toBe(true);
    if (isEvent(event, Channel.Tasks, 'task.deleted')) {
      // Narrowed without a cast: the payload is the catalogue's, the envelope's fields remain.
      const status: string = event.payload.status;
      expect([status, event.origin]).toEqual(['cancelled', 'remote']);
    }
  });

  it('should refuse another channel, another type, or a type the catalogue does not list', () => {
    expect(isEvent(wire('tasks', 'task.created'), Channel.Tasks, 'task.deleted')).toBe(false);
    expect(isEvent(wire('agents', 'task.created'), Channel.Tasks)).toBe(false);
    expect(isEvent(wire('tasks', 'task.tick'), Channel.Tasks)).toBe(false);
    expect(isEvent(wire('providers', 'provider.renamed'), Channel.Providers)).toBe(false);
  });

  it('should reject an unknown event type or a wrong payload at compile time', () => {
    const valid: CatalogueEvent = { channel: Channel.Budget, event_type: 'cost.recorded', payload: costPayload() };
    // @ts-expect-error an event type the channel does not carry
    const wrongType: CatalogueEvent = { channel: Channel.Budget, event_type: 'task.created', payload: costPayload() };
    // @ts-expect-error a channel that is not catalogued
    const wrongChannel: CatalogueEvent = { channel: 'internal.cache', event_type: 'cost.recorded', payload: {} };
    const wrongPayload: CatalogueEvent = {
      channel: Channel.Agents,
      event_type: 'agent.hired',
      // @ts-expect-error the payload of another event type
      payload: { name: 'x' },
    };
    expect([valid, wrongType, wrongChannel, wrongPayload]).toHaveLength(4);
  });
});

function costPayload() {
  return {
    agent_id: 'a1',
    task_id: null,
    provider: 'p',
    model: 'm',
    input_tokens: 1,
    output_tokens: 2,
    total_tokens: 3,
    cost_usd: 0.5,
    call_category: 'productive',
    timestamp: '2026-01-01T00:00:00.000Z',
  };
}
