import { Client, type Notification } from 'pg';

import type { PostgresEventBridgeOptions } from './postgres-event-bridge.types';
import { backoffDelay, decodeStoredRow, EVENTS_NOTIFY_CHANNEL, type StoredEventRow } from './stored-event';

const FETCH_BATCH = 500;
/** Rows per catch-up page; pages follow until a short one (at most CATCH_UP_PAGES). */
const CATCH_UP_LIMIT = 1000;
const CATCH_UP_PAGES = 100;
/**
 * The catch-up starts this many ids below the last one seen. Ids are taken when a row is inserted
 * but notified when it commits, so a row of another replica can commit (and be missed while the
 * listener is away) after a higher id was already seen. Rows in the overlap that were delivered
 * already are recognised (DELIVERED_MEMORY is far larger) and not delivered twice.
 */
const CATCH_UP_OVERLAP = 256;
const DELIVERED_MEMORY = 4096;
/** Own ids remembered until their notifications come back (within milliseconds; the bound is generous). */
const OWN_MEMORY = 4096;
/**
 * How long notifications wait for a running insert's answer. An insert that takes longer (a busy
 * pool, a lock) must not hold up other replicas' events: they are then classified without its ids,
 * and an own id among them is read back for nothing (the read skips own rows).
 */
const HOLD_MS = 50;

const SELECT_COLUMNS = 'id, channel, event_type, payload, origin_id, created_at';

/**
 * The receiving half of the Postgres event bridge: one dedicated client per replica LISTENs, reads
 * the notified rows back (in batches, in id order) and delivers those written by other replicas. It
 * reconnects with capped backoff and, after a reconnect, catches up on rows written while it was
 * away. The publishing half reports this replica's inserts (ownInsertStarted, ownInsertAnswered,
 * ownInsertEnded), so the notifications of its own rows need no read-back.
 */
export class PostgresEventListener {
  private client: Client | null = null;
  private closing = false;
  private attempt = 0;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private pendingIds: number[] = [];
  private chain: Promise<void> = Promise.resolve();
  /** Highest id seen on the notification stream: the catch-up starting point after a reconnect. */
  private lastSeenId: number | null = null;
  /** Read-backs queued or running: their ids may be below an own id that arrives meanwhile. */
  private reads = 0;
  private readonly delivered = new Set<number>();
  /** Ids this replica's inserts answered: their notifications need no read-back. */
  private readonly ownIds = new Set<number>();
  /** An insert of this replica is running: the ids it will answer are not known yet. */
  private inserting = false;
  /**
   * Notifications that arrived while an insert ran, in arrival order: any of them may be that
   * insert's, so they wait for its answer (and later ones queue behind them, keeping the order).
   */
  private held: number[] = [];
  private holdTimer: NodeJS.Timeout | null = null;
  private readonly reconnectInitialMs: number;
  private readonly reconnectMaxMs: number;

  constructor(private readonly options: PostgresEventBridgeOptions) {
    this.reconnectInitialMs = options.reconnectInitialMs ?? 500;
    this.reconnectMaxMs = options.reconnectMaxMs ?? 30_000;
  }

  get isListening(): boolean {
    return this.client !== null;
  }

  /** The reads queued so far, settled (failures are logged, not rethrown). */
  get settled(): Promise<void> {
    return this.chain;
  }

  /** First connection attempt; on failure the listener keeps retrying in the background. */
  start(): Promise<boolean> {
    this.closing = false;
    return this.connect();
  }

  /**
   * Stops reconnecting and classifies the held notifications; reads already queued still run (see
   * settled) until disconnect ends the client.
   */
  stop(): void {
    this.closing = true;
    if (this.reconnectTimer) {
      clearTimeout(this.reconnectTimer);
      this.reconnectTimer = null;
    }
    this.releaseHeld();
  }

  async disconnect(): Promise<void> {
    const client = this.client;
    this.client = null;
    if (client) {
      await client.end().catch(() => undefined);
    }
  }

  /** An insert of this replica starts: notifications wait for its ids (up to HOLD_MS). */
  ownInsertStarted(): void {
    this.inserting = true;
  }

  /** The insert answered the ids it wrote: their notifications need no read-back. */
  ownInsertAnswered(rows: unknown): void {
    if (!Array.isArray(rows)) {
      // Not what the insert answers on Postgres: own rows would then be read back (and skipped).
      this.options.log.warn({ answer: typeof rows }, 'communication.bridge.own_ids_unknown');
      return;
    }
    for (const row of rows as Array<{ id?: unknown }>) {
      const id = Number(row.id);
      if (Number.isSafeInteger(id)) {
        this.ownIds.add(id);
      }
    }
    // Oldest first: an id whose notification never came (a dropped listener) ages out.
    for (const id of this.ownIds) {
      if (this.ownIds.size <= OWN_MEMORY) {
        break;
      }
      this.ownIds.delete(id);
    }
  }

  /** The insert has answered or failed: the notifications held for it are classified. */
  ownInsertEnded(): void {
    this.inserting = false;
    this.releaseHeld();
  }

  private async connect(): Promise<boolean> {
    const client = new Client({
      connectionString: this.options.databaseUrl,
      application_name: this.options.applicationName ?? 'synthorg-events',
      connectionTimeoutMillis: this.options.connectTimeoutMs ?? 5000,
      keepAlive: true,
    });
    // pg emits 'error' on a broken connection; unhandled, it would crash the process.
    client.on('error', (error: Error) => this.connectionLost(client, error));
    client.on('end', () => this.connectionLost(client, null));
    client.on('notification', (message: Notification) => this.onNotification(message));
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_NOTIFY_CHANNEL}`);
      const reconnected = this.lastSeenId !== null;
      if (!reconnected) {
        const { rows } = await client.query<{ id: number }>(
          'SELECT COALESCE(MAX(id), 0)::int AS id FROM domain_events',
        );
        this.lastSeenId = rows[0]?.id ?? 0;
      }
      if (this.closing) {
        await client.end().catch(() => undefined);
        return false;
      }
      this.client = client;
      this.attempt = 0;
      this.options.log.info({ channel: EVENTS_NOTIFY_CHANNEL, reconnected }, 'communication.bridge.connected');
      this.options.onStatus?.({ connected: true, detail: 'postgres LISTEN/NOTIFY' });
      if (reconnected) {
        this.enqueueRead(() => this.catchUp(client));
      }
      return true;
    } catch (error) {
      await client.end().catch(() => undefined);
      const delay = this.scheduleReconnect();
      this.options.log.warn({ err: error, retry_in_ms: delay }, 'communication.bridge.connect_failed');
      this.options.onStatus?.({ connected: false, detail: `event listener cannot connect: ${describe(error)}` });
      return false;
    }
  }

  private connectionLost(client: Client, error: Error | null): void {
    if (client !== this.client) {
      return;
    }
    this.client = null;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    if (this.closing) {
      return;
    }
    const delay = this.scheduleReconnect();
    this.options.log.warn({ err: error ?? undefined, retry_in_ms: delay }, 'communication.bridge.connection_lost');
    this.options.onStatus?.({
      connected: false,
      detail: `event listener disconnected: ${error ? describe(error) : 'connection ended'}`,
    });
  }

  private scheduleReconnect(): number {
    const delay = backoffDelay(this.attempt, this.reconnectInitialMs, this.reconnectMaxMs);
    this.attempt += 1;
    if (this.closing || this.reconnectTimer) {
      return delay;
    }
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      if (!this.closing) {
        void this.connect();
      }
    }, delay);
    this.reconnectTimer.unref();
    return delay;
  }

  private onNotification(message: Notification): void {
    if (message.channel !== EVENTS_NOTIFY_CHANNEL) {
      return;
    }
    const id = notifiedId(message.payload);
    if (id === null) {
      return;
    }
    if (this.inserting || this.held.length > 0) {
      this.held.push(id);
      if (this.held.length === 1) {
        this.holdTimer = setTimeout(() => this.releaseHeld(), HOLD_MS);
        this.holdTimer.unref();
      } else if (this.held.length >= FETCH_BATCH) {
        this.releaseHeld();
      }
      return;
    }
    this.accept(id);
  }

  /**
   * Classifies the held notifications in arrival order: when the insert answers (its ids now
   * known), or when the hold runs out.
   */
  private releaseHeld(): void {
    if (this.holdTimer) {
      clearTimeout(this.holdTimer);
      this.holdTimer = null;
    }
    const held = this.held;
    this.held = [];
    for (const id of held) {
      this.accept(id);
    }
  }

  private accept(id: number): void {
    // Not idle either while (re)connecting: the catch-up that follows must start from the last id
    // read before the connection dropped, not from an own id that arrived in between.
    const idle = this.client !== null && this.pendingIds.length === 0 && this.reads === 0;
    const own = this.ownIds.delete(id);
    if (idle && own) {
      // This replica's own event, delivered locally when it was published: nothing to read back,
      // only seen. (Behind a fetch it waits its turn instead, so the catch-up point never passes
      // an id of another replica that has not been read yet; the read skips own rows.)
      this.lastSeenId = Math.max(this.lastSeenId ?? 0, id);
      return;
    }
    this.pendingIds.push(id);
    // One fetch per burst: the notifications that arrive while a fetch runs ride on the next one.
    if (this.pendingIds.length === 1) {
      this.enqueueRead(() => this.fetchPending());
    }
  }

  /** Serialises the listener's reads so events are delivered in the order they were notified. */
  private enqueue(task: () => Promise<void>): void {
    this.chain = this.chain.then(task).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'communication.bridge.fetch_failed');
    });
  }

  /** A read-back, counted from the moment it is queued until it ends (see accept). */
  private enqueueRead(read: () => Promise<void>): void {
    this.reads += 1;
    this.enqueue(async () => {
      try {
        await read();
      } finally {
        this.reads -= 1;
      }
    });
  }

  private async fetchPending(): Promise<void> {
    try {
      while (this.pendingIds.length > 0) {
        const client = this.client;
        if (!client || this.closing) {
          // Left for the catch-up after the reconnect (ids above lastSeenId).
          this.pendingIds = [];
          return;
        }
        const ids = this.pendingIds.splice(0, FETCH_BATCH);
        const { rows } = await client.query<StoredEventRow>(
          `SELECT ${SELECT_COLUMNS} FROM domain_events WHERE id = ANY($1::int[]) AND origin_id <> $2 ORDER BY id`,
          [ids, this.options.originId],
        );
        this.deliverRows(rows);
        this.lastSeenId = Math.max(this.lastSeenId ?? 0, ...ids);
      }
    } catch (error) {
      // The failed ids stay above lastSeenId, so the catch-up after the reconnect reads them; the
      // queue must be empty again or the next notification would never schedule a fetch.
      this.pendingIds = [];
      throw error;
    }
  }

  /** Reads, page by page, what other replicas wrote after the last id seen before a reconnect. */
  private async catchUp(client: Client): Promise<void> {
    if (this.lastSeenId === null) {
      return;
    }
    let after = Math.max(0, this.lastSeenId - CATCH_UP_OVERLAP);
    let events = 0;
    let full = false;
    for (let page = 0; page < CATCH_UP_PAGES && client === this.client; page++) {
      const { rows } = await client.query<StoredEventRow>(
        `SELECT ${SELECT_COLUMNS} FROM domain_events WHERE id > $1 AND origin_id <> $2 ORDER BY id LIMIT ${CATCH_UP_LIMIT}`,
        [after, this.options.originId],
      );
      events += this.deliverRows(rows);
      after = rows.at(-1)?.id ?? after;
      this.lastSeenId = Math.max(this.lastSeenId, after);
      full = rows.length === CATCH_UP_LIMIT;
      if (!full) {
        break;
      }
    }
    if (events > 0) {
      this.options.log.info({ events }, 'communication.bridge.caught_up');
    }
    if (full) {
      // Clients that were away this long reload their views anyway; the replica moves on.
      this.options.log.warn({ events, last_id: this.lastSeenId }, 'communication.bridge.catch_up_truncated');
    }
  }

  /** Delivers the rows not delivered before; answers how many that were. */
  private deliverRows(rows: StoredEventRow[]): number {
    let delivered = 0;
    for (const row of rows) {
      // A row can come both from the catch-up and from its own notification: deliver it once.
      if (this.delivered.has(row.id)) {
        continue;
      }
      this.remember(row.id);
      const event = decodeStoredRow(row);
      if (!event) {
        this.options.log.warn({ id: row.id, channel: row.channel }, 'communication.bridge.decode_failed');
        continue;
      }
      this.options.deliver(event);
      delivered += 1;
    }
    return delivered;
  }

  private remember(id: number): void {
    this.delivered.add(id);
    if (this.delivered.size > DELIVERED_MEMORY) {
      const oldest = this.delivered.values().next();
      if (!oldest.done) {
        this.delivered.delete(oldest.value);
      }
    }
  }
}

/**
 * The row id of a notification: the whole payload, or what precedes a ':' (builds that tagged the
 * id with its writer's origin); anything else is not ours.
 */
function notifiedId(payload: string | undefined): number | null {
  const text = payload ?? '';
  const colon = text.indexOf(':');
  const id = Number(colon < 0 ? text : text.slice(0, colon));
  return text !== '' && Number.isSafeInteger(id) ? id : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
