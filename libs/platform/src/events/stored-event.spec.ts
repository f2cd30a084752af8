import type { ReceivedEvent } from './domain-event';
import { backoffDelay, decodeStoredRow, encodeStoredPayload, type StoredEventRow } from './stored-event';

const local: ReceivedEvent = {
  channel: 'tasks',
  event_type: 'task.created',
  payload: { id: 't1', nested: { n: 1 } },
  timestamp: '2026-01-02T03:04:05.000Z',
  origin: 'local',
  event_id: 'e-1',
};

function row(payload: string): StoredEventRow {
  return {
    id: 7,
    channel: 'tasks',
    event_type: 'task.created',
    payload,
    origin_id: 'o',
    created_at: new Date('2026-02-03T04:05:06.000Z'),
  };
}

describe('stored events', () => {
  it('should round-trip id, timestamp and payload as a remote event when encoded by a replica', () => {
    expect(decodeStoredRow(row(encodeStoredPayload(local)))).toEqual({ ...local, origin: 'remote' });
  });

  it('should take id and time from the row when the column holds a bare payload', () => {
    expect(decodeStoredRow(row('{"a":1}'))).toEqual({
      channel: 'tasks',
      event_type: 'task.created',
      payload: { a: 1 },
      timestamp: '2026-02-03T04:05:06.000Z',
      origin: 'remote',
      event_id: 'row-7',
    });
  });

  it.each(['not json', '[1,2]', '42', 'null'])(
    'should refuse a column that is not a JSON object when it is %s',
    (p) => {
      expect(decodeStoredRow(row(p))).toBeNull();
    },
  );

  it('should double the reconnect delay up to the cap when attempts accumulate', () => {
    expect([0, 1, 2, 3, 10, 100].map((n) => backoffDelay(n, 500, 30_000))).toEqual([
      500, 1000, 2000, 4000, 30_000, 30_000,
    ]);
  });
});
