import { Client } from 'pg';
import pino from 'pino';
import type { DataSource } from 'typeorm';

import { createDataSource, runMigrations } from '@app/persistence';
import { DomainEventBus, EVENTS_NOTIFY_CHANNEL, PostgresEventBridge, type ReceivedEvent } from '@app/platform';
import { createTestDatabase, type TestDatabase, testBackends } from '@app/testing';

const log = pino({ level: 'silent' });

/** Polls until the predicate holds; fails after the deadline instead of hanging the suite. */
async function waitFor(predicate: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!predicate()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

interface Replica {
  bus: DomainEventBus;
  bridge: PostgresEventBridge;
  source: DataSource;
  seen: ReceivedEvent[];
}

const describePostgres = testBackends().includes('postgres') ? describe : describe.skip;

/** How long the slow replica's event insert is held back. */
const SLOW_INSERT_MS = 4000;

describePostgres('event bus across replicas on postgres', () => {
  let db: TestDatabase;
  let a: Replica;
  let b: Replica;

  /** `insertDelayMs` holds each of the replica's event inserts back that long (a busy pool, a lock). */
  async function replica(originId: string, insertDelayMs = 0): Promise<Replica> {
    const source = await createDataSource(db.settings).initialize();
    const bus = new DomainEventBus(log);
    const seen: ReceivedEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    const bridge = new PostgresEventBridge({
      databaseUrl: db.settings.databaseUrl ?? '',
      execute: async (sql, params) => {
        if (insertDelayMs > 0 && sql.includes('INSERT INTO domain_events')) {
          await new Promise((resolve) => setTimeout(resolve, insertDelayMs));
        }
        return source.query(sql, params);
      },
      originId,
      log,
      deliver: (e) => bus.deliverRemote(e),
      reconnectInitialMs: 50,
      reconnectMaxMs: 200,
    });
    bus.setRelay(bridge);
    return { bus, bridge, source, seen };
  }

  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    a = await replica('replica-a');
    await runMigrations(a.source);
    b = await replica('replica-b');
    expect(await a.bridge.start()).toBe(true);
    expect(await b.bridge.start()).toBe(true);
  });

  afterAll(async () => {
    for (const r of [a, b]) {
      await r?.bridge.close();
      await r?.source.destroy();
    }
    await db?.drop();
  });

  beforeEach(() => {
    a.seen.length = 0;
    b.seen.length = 0;
  });

  it('should deliver an event published on A to B as remote with the full payload when it exceeds 8000 bytes', async () => {
    const big = 'x'.repeat(20_000);
    await a.bus.publish({ channel: 'tasks', event_type: 'task.created', payload: { id: 't1', big } });
    await waitFor(() => b.seen.length === 1, 'the event on B');
    const local = a.seen[0];
    expect(local).toMatchObject({ origin: 'local', channel: 'tasks' });
    expect(b.seen[0]).toEqual({ ...local, origin: 'remote' });
    expect((b.seen[0].payload as { big: string }).big).toHaveLength(20_000);
  });

  it('should not echo an event back to its publisher as remote when the notification returns', async () => {
    await a.bus.publish({ channel: 'agents', event_type: 'agent.hired', payload: { n: 1 } });
    await b.bus.publish({ channel: 'agents', event_type: 'agent.hired', payload: { n: 2 } });
    await waitFor(() => a.seen.length === 2 && b.seen.length === 2, 'both events on both replicas');
    await new Promise((resolve) => setTimeout(resolve, 200));
    // Local delivery is synchronous and remote delivery is not, so only membership is fixed, not order.
    const byPayload = (seen: ReceivedEvent[]): Array<[string, unknown]> =>
      seen.map((e): [string, unknown] => [e.origin, e.payload.n]).sort((x, y) => Number(x[1]) - Number(y[1]));
    expect(byPayload(a.seen)).toEqual([
      ['local', 1],
      ['remote', 2],
    ]);
    expect(byPayload(b.seen)).toEqual([
      ['remote', 1],
      ['local', 2],
    ]);
  });

  it('should notify the bare row id, the payload every build understands during a rolling upgrade', async () => {
    const listener = new Client({ connectionString: db.settings.databaseUrl ?? '' });
    await listener.connect();
    try {
      const payloads: string[] = [];
      listener.on('notification', (message) => payloads.push(message.payload ?? ''));
      await listener.query(`LISTEN ${EVENTS_NOTIFY_CHANNEL}`);
      await a.bus.publish({ channel: 'agents', event_type: 'agent.hired', payload: { n: 4 } });
      await waitFor(() => payloads.length === 1 && b.seen.length === 1, 'the notification and the event on B');
      expect(payloads[0]).toMatch(/^[1-9][0-9]*$/);
    } finally {
      await listener.end();
    }
  });

  it("should read back only the other replica's events: the publisher knows its own ids from the insert", async () => {
    const query = jest.spyOn(Client.prototype, 'query');
    try {
      await a.bus.publish({ channel: 'agents', event_type: 'agent.hired', payload: { n: 3 } });
      await waitFor(() => b.seen.length === 1, 'the event on B');
      await new Promise((resolve) => setTimeout(resolve, 200));
      const readBacks = query.mock.calls.filter(([sql]) => String(sql).includes('FROM domain_events WHERE id = ANY'));
      // B reads A's row; A skips its own notification without a query.
      expect(readBacks).toHaveLength(1);
      expect(a.seen.map((e) => e.origin)).toEqual(['local']);
    } finally {
      query.mockRestore();
    }
  });

  it('should read back and deliver a row that another process inserted and notified', async () => {
    const rows = await a.source.query<Array<{ id: number }>>(
      "INSERT INTO domain_events (channel, event_type, payload, origin_id, created_at) VALUES ($1, $2, $3, $4, now() AT TIME ZONE 'UTC') RETURNING id",
      [
        'system',
        'system.legacy',
        JSON.stringify({ v: 1, event_id: 'legacy-1', timestamp: new Date().toISOString(), payload: { old: true } }),
        'replica-old',
      ],
    );
    await a.source.query(`SELECT pg_notify('${EVENTS_NOTIFY_CHANNEL}', $1)`, [String(rows[0]?.id)]);
    await waitFor(() => a.seen.length === 1 && b.seen.length === 1, 'the event on both replicas');
    expect(a.seen[0]).toMatchObject({ origin: 'remote', event_type: 'system.legacy', payload: { old: true } });
    expect(b.seen[0]).toMatchObject({ origin: 'remote', event_type: 'system.legacy', payload: { old: true } });
  });

  it('should write the events published in one turn, one after another, with one statement', async () => {
    const query = jest.spyOn(a.source, 'query');
    try {
      // As a write of several steps announces them: each publish awaited before the next.
      await a.bus.publish({ channel: 'tasks', event_type: 'task.status_changed', payload: { step: 1 } });
      await a.bus.publish({ channel: 'tasks', event_type: 'task.status_changed', payload: { step: 2 } });
      await waitFor(() => b.seen.length === 2, 'both events on B');
      const inserts = query.mock.calls.filter(([sql]) => String(sql).includes('INSERT INTO domain_events'));
      expect(inserts).toHaveLength(1);
      expect(b.seen.map((e) => e.payload.step)).toEqual([1, 2]);
    } finally {
      query.mockRestore();
    }
  });

  it('should deliver every event of a burst exactly once and in publish order on the other replica when 50 are published at once', async () => {
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        a.bus.publish({ channel: 'tasks', event_type: 'task.tick', payload: { i } }),
      ),
    );
    await waitFor(() => b.seen.length === 50, '50 events on B');
    // Each event exactly once, and in the order A published them (A writes them in that order).
    expect(new Set(b.seen.map((e) => e.event_id))).toEqual(new Set(a.seen.map((e) => e.event_id)));
    expect(b.seen.map((e) => e.payload.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("should deliver each replica's burst exactly once and in order on the other when both publish at once", async () => {
    const burst = (r: Replica, name: string) =>
      Array.from({ length: 40 }, (_, i) =>
        r.bus.publish({ channel: 'tasks', event_type: `task.${name}`, payload: { i } }),
      );
    await Promise.all([...burst(a, 'a'), ...burst(b, 'b')]);
    await waitFor(() => a.seen.length === 80 && b.seen.length === 80, '80 events on each replica');
    for (const [r, own, other] of [
      [a, 'task.a', 'task.b'],
      [b, 'task.b', 'task.a'],
    ] as const) {
      const from = (type: string) => r.seen.filter((e) => e.event_type === type);
      expect(from(own).every((e) => e.origin === 'local')).toBe(true);
      expect(from(other).every((e) => e.origin === 'remote')).toBe(true);
      expect(from(other).map((e) => e.payload.i)).toEqual(Array.from({ length: 40 }, (_, i) => i));
    }
  });

  it(
    "should not hold another replica's events back while its own insert is slow",
    async () => {
      const c = await replica('replica-c', SLOW_INSERT_MS);
      try {
        expect(await c.bridge.start()).toBe(true);
        const own = c.bus.publish({ channel: 'tasks', event_type: 'task.slow', payload: {} });
        await new Promise((resolve) => setTimeout(resolve, 100)); // C's insert is now running
        const sent = Date.now();
        await b.bus.publish({ channel: 'tasks', event_type: 'task.meanwhile', payload: {} });
        await waitFor(() => c.seen.some((e) => e.event_type === 'task.meanwhile'), "B's event on C");
        // Well under the insert's time: the notification waited at most the hold, not the insert. The
        // margin is a second or more, so a busy machine cannot turn a pass into a failure.
        expect(Date.now() - sent).toBeLessThan(SLOW_INSERT_MS - 1000);
        await own;
        await waitFor(() => b.seen.some((e) => e.event_type === 'task.slow'), "C's event on B");
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(c.seen.filter((e) => e.event_type === 'task.slow').map((e) => e.origin)).toEqual(['local']);
      } finally {
        await c.bridge.close();
        await c.source.destroy();
      }
    },
    4 * SLOW_INSERT_MS,
  );

  it('should reconnect the listener and catch up, page after page, on events missed while it was down', async () => {
    const admin = await createDataSource(db.settings).initialize();
    try {
      // Rows no notification announced: only the catch-up after the reconnect finds them, and
      // there are more than one catch-up page holds.
      await admin.query(
        "INSERT INTO domain_events (channel, event_type, payload, origin_id, created_at) SELECT 'system', 'system.unannounced', $1, 'replica-x', now() AT TIME ZONE 'UTC' FROM generate_series(1, 1500)",
        [JSON.stringify({ v: 1, event_id: 'unannounced', timestamp: new Date().toISOString(), payload: {} })],
      );
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'synthorg-events' AND datname = current_database()",
      );
      await waitFor(() => !a.bridge.isListening && !b.bridge.isListening, 'both listeners dropped');
      await a.bus.publish({ channel: 'system', event_type: 'system.during_outage', payload: {} });
      await waitFor(() => b.bridge.isListening, 'B listening again');
      await waitFor(() => b.seen.some((e) => e.event_type === 'system.during_outage'), 'the missed event on B');
      expect(b.seen.filter((e) => e.event_type === 'system.unannounced')).toHaveLength(1500);
    } finally {
      await admin.destroy();
    }
  });

  it('should catch up after a reconnect on a row that committed late, below an id already seen', async () => {
    const admin = await createDataSource(db.settings).initialize();
    try {
      // Another replica takes an id, and commits only after a higher id has been seen.
      const [{ id: late }] = await admin.query<[{ id: number }]>(
        "SELECT nextval(pg_get_serial_sequence('domain_events', 'id'))::int AS id",
      );
      await a.bus.publish({ channel: 'system', event_type: 'system.seen', payload: {} });
      await waitFor(() => b.seen.some((e) => e.event_type === 'system.seen'), 'the higher id seen on B');
      await admin.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'synthorg-events' AND datname = current_database()",
      );
      await waitFor(() => !a.bridge.isListening && !b.bridge.isListening, 'both listeners dropped');
      await admin.query(
        "INSERT INTO domain_events (id, channel, event_type, payload, origin_id, created_at) VALUES ($1, 'system', 'system.late', $2, 'replica-x', now() AT TIME ZONE 'UTC')",
        [late, JSON.stringify({ v: 1, event_id: 'late', timestamp: new Date().toISOString(), payload: {} })],
      );
      await waitFor(() => b.bridge.isListening, 'B listening again');
      await waitFor(() => b.seen.some((e) => e.event_type === 'system.late'), 'the late row on B');
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The overlap re-reads rows B had delivered already: they are not delivered again.
      expect(b.seen.filter((e) => e.event_type === 'system.seen')).toHaveLength(1);
      expect(b.seen.filter((e) => e.event_type === 'system.late')).toHaveLength(1);
    } finally {
      await admin.destroy();
    }
  });

  it('should prune rows older than the retention when prune runs', async () => {
    await a.source.query(
      "INSERT INTO domain_events (channel, event_type, payload, origin_id, created_at) VALUES ('tasks', 'old', '{}', 'x', now() AT TIME ZONE 'UTC' - interval '2 hours')",
    );
    await a.bridge.prune();
    const [{ old }] = await a.source.query<[{ old: number }]>(
      "SELECT count(*)::int AS old FROM domain_events WHERE event_type = 'old'",
    );
    expect(old).toBe(0);
  });
});

describe.each(testBackends().filter((b) => b === 'sqlite'))('event bus on %s', () => {
  it('should deliver locally only, with origin local, when no bridge is attached', async () => {
    const bus = new DomainEventBus(log);
    const seen: ReceivedEvent[] = [];
    bus.subscribe((e) => seen.push(e));
    await bus.publish({ channel: 'budget', event_type: 'budget.spent', payload: { cost_usd: 1 } });
    expect(seen).toHaveLength(1);
    expect(seen[0].origin).toBe('local');
  });
});
