import type { ReceivedEvent } from '@app/platform';

import { EventFrames, serializeEventFrame } from './event-frames';

const event: ReceivedEvent = {
  channel: 'agents',
  event_type: 'agent.cost_recorded',
  payload: { agent_id: 'a1', cost_usd: 0.25 },
  timestamp: '2026-01-01T00:00:00.000Z',
  origin: 'remote',
  event_id: 'e1',
};

describe('EventFrames', () => {
  afterEach(() => jest.restoreAllMocks());

  it('should carry the documented keys and no origin when serialised', () => {
    expect(JSON.parse(serializeEventFrame(event, event.payload))).toEqual({
      event_type: 'agent.cost_recorded',
      channel: 'agents',
      timestamp: '2026-01-01T00:00:00.000Z',
      payload: { agent_id: 'a1', cost_usd: 0.25 },
      event_id: 'e1',
    });
  });

  it('should serialise once per audience variant when sent to many clients', () => {
    const stringify = jest.spyOn(JSON, 'stringify');
    const frames = new EventFrames(event);
    for (let i = 0; i < 1000; i++) {
      frames.forFullAccess();
      frames.forReadOnly();
    }
    expect(stringify).toHaveBeenCalledTimes(2);
    expect(JSON.parse(frames.forReadOnly()).payload).toEqual({ agent_id: 'a1', cost_usd: null });
  });

  it('should reuse the full frame for read-only clients when there is nothing to redact', () => {
    const stringify = jest.spyOn(JSON, 'stringify');
    const frames = new EventFrames({ ...event, payload: { agent_id: 'a1' } });
    expect(frames.forReadOnly()).toBe(frames.forFullAccess());
    expect(stringify).toHaveBeenCalledTimes(1);
  });
});
