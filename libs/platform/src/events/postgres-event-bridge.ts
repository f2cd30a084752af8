import type { ReceivedEvent } from './domain-event';
import type { EventRelay } from './domain-event-bus';
import type { PostgresEventBridgeOptions } from './postgres-event-bridge.types';
import { PostgresEventListener } from './postgres-event-listener';
import { encodeStoredPayload, EVENTS_NOTIFY_CHANNEL } from './stored-event';

/** Events written by one statement at most; the rest wait for the next one. */
const WRITE_BATCH = 200;

/**
 * The inserts and the NOTIFYs of a batch are one autocommit statement: the notifications are sent
 * when the rows are committed, so a listener that reacts to one always finds its row. Rows get their
 * ids in VALUES order, and the ids are notified in id order (Postgres evaluates a volatile function
 * of the target list after the sort).
 */
function insertAndNotify(rows: number): string {
  const values = Array.from({ length: rows }, (_, i) => {
    const p = i * 4;
    return `($${p + 1}, $${p + 2}, $${p + 3}, $${p + 4}, now() AT TIME ZONE 'UTC')`;
  });
  return (
    'WITH inserted AS (INSERT INTO domain_events (channel, event_type, payload, origin_id, created_at) ' +
    `VALUES ${values.join(', ')} RETURNING id) ` +
    `SELECT id, pg_notify('${EVENTS_NOTIFY_CHANNEL}', id::text) FROM inserted ORDER BY id`
  );
}

interface Outgoing {
  event: ReceivedEvent;
  done: () => void;
  failed: (error: unknown) => void;
}

const PRUNE = "DELETE FROM domain_events WHERE created_at < (now() AT TIME ZONE 'UTC') - make_interval(secs => $1)";

/**
 * Cross-replica delivery over Postgres: publish inserts the event and notifies its id; one dedicated
 * client per replica LISTENs, reads the rows back and delivers those written by other replicas (see
 * PostgresEventListener, which also reconnects and catches up). Old rows are pruned periodically by
 * every replica.
 */
export class PostgresEventBridge implements EventRelay {
  private closing = false;
  private pruneTimer: NodeJS.Timeout | null = null;
  /** Events waiting for the writer, in publish order. */
  private outbox: Outgoing[] = [];
  private writing: Promise<void> | null = null;
  private readonly listener: PostgresEventListener;
  private readonly retentionMs: number;
  private readonly pruneIntervalMs: number;

  constructor(private readonly options: PostgresEventBridgeOptions) {
    this.listener = new PostgresEventListener(options);
    this.retentionMs = options.retentionMs ?? 60 * 60 * 1000;
    this.pruneIntervalMs = options.pruneIntervalMs ?? 10 * 60 * 1000;
  }

  get isListening(): boolean {
    return this.listener.isListening;
  }

  /** First connection attempt; on failure the bridge keeps retrying in the background. */
  async start(): Promise<boolean> {
    this.closing = false;
    const connected = await this.listener.start();
    this.pruneTimer = setInterval(() => void this.prune(), this.pruneIntervalMs);
    this.pruneTimer.unref();
    void this.prune();
    return connected;
  }

  /**
   * Queues the event for the one writer of this replica, which keeps publish order. The writer starts
   * at the end of the current turn of the event loop, so the events one piece of work publishes
   * together (the steps of a task's write) share a statement; whatever is queued while a statement
   * runs goes into the next one, so a burst costs a few commits, not one per event. Resolves once
   * the event's statement has committed.
   */
  forward(event: ReceivedEvent): Promise<void> {
    if (this.closing) {
      return Promise.resolve();
    }
    return new Promise<void>((done, failed) => {
      this.outbox.push({ event, done, failed });
      this.writing ??= endOfTurn().then(() => this.writeOutbox());
    });
  }

  private async writeOutbox(): Promise<void> {
    try {
      while (this.outbox.length > 0) {
        const batch = this.outbox.splice(0, WRITE_BATCH);
        const params = batch.flatMap(({ event }) => [
          event.channel,
          event.event_type,
          encodeStoredPayload(event),
          this.options.originId,
        ]);
        this.listener.ownInsertStarted();
        try {
          const rows = await this.options.execute(insertAndNotify(batch.length), params);
          this.listener.ownInsertAnswered(rows);
          batch.forEach((item) => item.done());
        } catch (error) {
          batch.forEach((item) => item.failed(error));
        } finally {
          this.listener.ownInsertEnded();
        }
      }
    } finally {
      this.writing = null;
    }
  }

  async close(): Promise<void> {
    this.closing = true;
    this.listener.stop();
    if (this.pruneTimer) {
      clearInterval(this.pruneTimer);
      this.pruneTimer = null;
    }
    // Bounded: a read or write stuck on a dead connection must not hold up shutdown.
    await Promise.race([Promise.all([this.listener.settled, this.writing]), sleep(2000)]);
    await this.listener.disconnect();
  }

  /** Deletes rows past the retention (cheap: created_at is indexed). Failures only cost disk space. */
  async prune(): Promise<void> {
    if (this.closing) {
      return;
    }
    try {
      await this.options.execute(PRUNE, [Math.round(this.retentionMs / 1000)]);
    } catch (error) {
      this.options.log.debug({ err: error }, 'communication.events.prune_failed');
    }
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Resolves once the current turn of the event loop (its callbacks and their microtasks) is done. */
function endOfTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
