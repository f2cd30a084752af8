import { createHash } from 'node:crypto';

import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { Client } from 'pg';
import type { Logger } from 'pino';

import { APP_CONFIG, type AppConfig, LOGGING_RUNTIME, type LoggingRuntime, ReplicaIdentity } from '@app/platform';

/** The advisory-lock namespace (the two-key form's first key) of replicas' liveness locks. */
export const LIVENESS_LOCK_CLASS = 0x53594c56; // "SYLV"
/** How soon a lost liveness session is opened again. */
const RECONNECT_MS = 1_000;

/** The liveness lock's second key for a run owner: 31 bits of its hash. */
export function livenessKey(owner: string): number {
  return createHash('sha256').update(owner).digest().readInt32BE(0);
}

/**
 * A replica's proof of life that does not depend on its event loop: one Postgres session of its own
 * holding a session-level advisory lock keyed by the replica's owner id. The database server holds the
 * lock for as long as the session lives: a killed process's socket closes and the lock goes at once;
 * a lost host is found by the session's TCP keepalives (5 s idle, then 3 probes 2 s apart). A replica
 * that is only slow — a long model call, a GC pause, a busy event loop — keeps its session, so its
 * runs are never taken from it. Other replicas read the locks from `pg_locks`.
 *
 * A replica judges others only once its own lock has been held for the grace (so that after a
 * database restart, every replica has had time to take its lock again), and an owner is dead only
 * when its lock was missing at two looks at least the grace apart (see {@link deadAmong}).
 */
@Injectable()
export class ReplicaLiveness implements OnApplicationShutdown {
  private readonly log: Logger;
  private client: Client | null = null;
  private heldSince: number | null = null;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  /** Owners seen without their lock, and when first. */
  private readonly suspects = new Map<string, number>();

  constructor(
    private readonly identity: ReplicaIdentity,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.dispatcher');
  }

  /** On when the backend is Postgres and the grace is above 0. */
  get enabled(): boolean {
    return (
      this.config.persistence.backend === 'postgres' &&
      this.config.persistence.databaseUrl !== null &&
      this.config.engine.livenessGraceSeconds > 0
    );
  }

  private get graceMs(): number {
    return this.config.engine.livenessGraceSeconds * 1000;
  }

  /** Takes this replica's lock (and keeps taking it again whenever its session is lost). */
  async start(): Promise<void> {
    if (!this.enabled || this.client || this.stopped) {
      return;
    }
    await this.connect();
  }

  /** Whether this replica has held its lock for at least the grace: it may judge the others. */
  steady(now = Date.now()): boolean {
    return this.heldSince !== null && now - this.heldSince >= this.graceMs;
  }

  /**
   * Of these owners, those that are dead: no session holds their lock, now and at an earlier look at
   * least the grace ago. Owners seen alive are forgotten as suspects. Empty while this replica is not
   * steady itself.
   */
  async deadAmong(owners: readonly string[], now = Date.now()): Promise<Set<string>> {
    const dead = new Set<string>();
    const client = this.client;
    if (owners.length === 0 || client === null || !this.steady(now)) {
      return dead;
    }
    const { rows } = await client.query<{ objid: string }>(
      `SELECT "objid"::text AS "objid" FROM "pg_locks"
         WHERE "locktype" = 'advisory' AND "classid" = $1::oid AND "objsubid" = 2 AND "granted"`,
      [LIVENESS_LOCK_CLASS],
    );
    // pg_locks shows the second key as an unsigned oid.
    const held = new Set(rows.map((r) => Number(r.objid) | 0));
    for (const owner of owners) {
      if (held.has(livenessKey(owner))) {
        this.suspects.delete(owner);
        continue;
      }
      const since = this.suspects.get(owner);
      if (since === undefined) {
        this.suspects.set(owner, now);
      } else if (now - since >= this.graceMs) {
        dead.add(owner);
      }
    }
    return dead;
  }

  /** Forgets an owner whose work was recovered. */
  forget(owner: string): void {
    this.suspects.delete(owner);
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) {
      clearTimeout(this.timer);
    }
    const client = this.client;
    this.client = null;
    this.heldSince = null;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<void> {
    const client = new Client({
      connectionString: this.config.persistence.databaseUrl ?? undefined,
      keepAlive: true,
      keepAliveInitialDelayMillis: 5_000,
      application_name: 'synthorg-liveness',
    });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, null));
    try {
      await client.connect();
      // The server side finds a vanished host too: idle 5 s, then 3 probes 2 s apart.
      await client.query('SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 2; SET tcp_keepalives_count = 3');
      await client.query('SELECT pg_advisory_lock($1, $2)', [LIVENESS_LOCK_CLASS, livenessKey(this.identity.owner)]);
    } catch (error) {
      this.lost(client, error as Error);
      return;
    }
    if (this.stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.heldSince = Date.now();
    this.log.info({ owner: this.identity.owner }, 'engine.liveness.held');
  }

  private lost(client: Client, error: Error | null): void {
    if (this.client !== null && this.client !== client) {
      return; // an older session's late event
    }
    const wasHeld = this.client === client;
    this.client = null;
    this.heldSince = null;
    client.end().catch(() => undefined);
    if (this.stopped || this.timer) {
      return;
    }
    if (wasHeld) {
      this.log.warn({ err: error ?? undefined }, 'engine.liveness.lost');
    }
    this.timer = setTimeout(() => {
      this.timer = null;
      this.connect().catch((failure: unknown) => this.log.warn({ err: failure }, 'engine.liveness.retry_failed'));
    }, RECONNECT_MS);
    this.timer.unref();
  }
}
