import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { AUDIT_GENESIS_HASH, type AuditOutcome, auditHash, type AuditBreak, verifyAuditRows } from '@app/domain';
import type { AuditEntryEntity } from '@app/persistence';
import { Correlation, LOGGING_RUNTIME, type LoggingRuntime, redact } from '@app/platform';

import { AuditRepository, PRUNE_ACTION } from './audit.repository';

/** What a module records: who did what to which target, and how it went. */
export interface AuditEvent {
  actor: string;
  action: string;
  target?: string | null;
  outcome: AuditOutcome;
  details?: Record<string, unknown>;
}

/** Appends lost to another writer are retried on the new tail this often before giving up. */
const MAX_ATTEMPTS = 20;
/** Rows read per verification batch. */
const VERIFY_BATCH = 500;

/**
 * The tamper-evident audit trail: every recorded event becomes a row whose SHA-256 hash covers the
 * previous row's hash, so an edit or deletion made directly in the database is detectable. The same
 * events go to the audit log sink (`synthorg.security.audit`). Recording never fails its caller: a
 * row that cannot be written is logged as an error instead.
 */
@Injectable()
export class AuditTrail {
  private readonly log: Logger;
  private readonly sink: Logger;
  // Appends of this process go one at a time; other replicas are kept apart by the key on `seq`.
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly rows: AuditRepository,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('audit');
    this.sink = logging.forName('security.audit');
  }

  /** Records the event; answers the stored row, or null when it could not be written (logged). */
  record(event: AuditEvent): Promise<AuditEntryEntity | null> {
    const details = redact(event.details ?? {});
    const requestId = Correlation.requestId() ?? null;
    const appended = this.queue.then(() => this.append(event, details, requestId));
    this.queue = appended.catch(() => undefined);
    return appended.catch((error: unknown) => {
      this.log.error({ err: error, action: event.action }, 'audit.entry.write_failed');
      return null;
    });
  }

  /**
   * Retention: deletes the rows written before `cutoff`. A checkpoint row recording the last pruned
   * row's seq and hash is appended first, so the remaining chain still verifies (its first row links
   * to that hash) and a deletion of the chain's start without a checkpoint is still detected.
   */
  async prune(cutoff: Date): Promise<number> {
    const last = await this.rows.lastBefore(cutoff);
    if (!last) {
      return 0;
    }
    const checkpoint = await this.record({
      actor: 'system',
      action: PRUNE_ACTION,
      outcome: 'success',
      details: { through_seq: last.seq, through_hash: last.hash, cutoff: cutoff.toISOString() },
    });
    if (!checkpoint) {
      return 0;
    }
    const pruned = await this.rows.deleteThrough(last.seq);
    this.log.info({ pruned, through_seq: last.seq }, 'audit.entries.pruned');
    return pruned;
  }

  /** Walks the whole chain; answers the first row that does not hold, or null when all do. */
  async verify(): Promise<{ checked: number; broken: AuditBreak | null }> {
    let previous: { seq: number; hash: string } | null = null;
    let checked = 0;
    const first = (await this.rows.after(0, 1))[0];
    if (first && first.seq > 1) {
      // The chain starts after a prune: its first row must link to the prune's checkpoint.
      const checkpoint = await this.rows.checkpointThrough(first.seq - 1);
      if (!checkpoint || checkpoint.hash !== first.prevHash) {
        return { checked: 0, broken: { seq: first.seq, reason: 'link_mismatch' } };
      }
      previous = { seq: first.seq - 1, hash: checkpoint.hash };
    }
    for (;;) {
      const batch = await this.rows.after(previous?.seq ?? 0, VERIFY_BATCH);
      const broken = verifyAuditRows(batch, previous);
      if (broken) {
        return { checked: checked + batch.findIndex((row) => row.seq === broken.seq) + 1, broken };
      }
      checked += batch.length;
      if (batch.length < VERIFY_BATCH) {
        return { checked, broken: null };
      }
      const last = batch[batch.length - 1];
      previous = { seq: last.seq, hash: last.hash };
    }
  }

  private async append(
    event: AuditEvent,
    details: Record<string, unknown>,
    requestId: string | null,
  ): Promise<AuditEntryEntity> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
      const tail = await this.rows.tail();
      const fields = {
        seq: (tail?.seq ?? 0) + 1,
        id: randomUUID(),
        at: new Date(),
        actor: event.actor.slice(0, 256),
        action: event.action.slice(0, 64),
        target: event.target?.slice(0, 256) ?? null,
        outcome: event.outcome,
        requestId,
        details,
        prevHash: tail?.hash ?? AUDIT_GENESIS_HASH,
      };
      const row: AuditEntryEntity = { ...fields, hash: auditHash(fields) };
      if (await this.rows.append(row)) {
        this.sink.info(
          { actor: row.actor, target: row.target, outcome: row.outcome, seq: row.seq, details },
          `security.audit.${row.action}`,
        );
        return row;
      }
    }
    throw new Error(`audit append lost ${MAX_ATTEMPTS} times to concurrent writers`);
  }
}
