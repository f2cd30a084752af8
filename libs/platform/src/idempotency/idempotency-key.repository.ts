import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { Brackets, IsNull, type Repository } from 'typeorm';

import { EntityStatements, IdempotencyKeyEntity } from '@app/persistence';

import { DatabaseService } from '../persistence/database.service';

import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from './idempotency-key';

/** Expired rows are deleted at most this often per process, on the back of a claim. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/** What claiming a key found. */
export type IdempotencyClaim =
  | { state: 'claimed'; claimToken: string }
  | { state: 'in_flight'; fingerprint: string }
  | { state: 'completed'; fingerprint: string; statusCode: number; response: string };

/**
 * The `idempotency_keys` table: one row per scoped key, shared by every replica. A claim is an
 * insert that the primary key lets only one request win; completing stores the answer on the row.
 */
@Injectable()
export class IdempotencyKeyRepository {
  private nextPurgeAt = 0;

  constructor(private readonly database: DatabaseService) {}

  private get repo(): Repository<IdempotencyKeyEntity> {
    return this.database.dataSource.getRepository(IdempotencyKeyEntity);
  }

  /** The row of a key, read on every keyed write request (twice on a takeover): without the query builder. */
  private find(id: string): Promise<IdempotencyKeyEntity | null> {
    return EntityStatements.for(this.database.dataSource, IdempotencyKeyEntity).findOne({ id });
  }

  /**
   * Claims the key for this request, or reports who holds it. An expired row, or an in-flight row
   * whose lease ran out, is taken over. The winner is whoever's claim token the row carries.
   */
  async claim(id: string, fingerprint: string, now = new Date(), attempt = 0): Promise<IdempotencyClaim> {
    this.purgeLazily(now);
    const claimToken = randomUUID();
    const fresh: IdempotencyKeyEntity = {
      id,
      fingerprint,
      claimToken,
      statusCode: null,
      response: null,
      lockedUntil: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
      createdAt: now,
      expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    };
    await this.repo.createQueryBuilder().insert().into(IdempotencyKeyEntity).values(fresh).orIgnore().execute();
    let row = await this.find(id);
    if (row && row.claimToken !== claimToken && isStale(row, now)) {
      await this.takeOver(fresh, now);
      row = await this.find(id);
    }
    if (!row && attempt < 2) {
      // Released or purged between the two statements: nobody holds the key now, so try again.
      return this.claim(id, fingerprint, now, attempt + 1);
    }
    if (!row || row.claimToken === claimToken) {
      return { state: 'claimed', claimToken };
    }
    if (row.statusCode === null || row.response === null) {
      return { state: 'in_flight', fingerprint: row.fingerprint };
    }
    return { state: 'completed', fingerprint: row.fingerprint, statusCode: row.statusCode, response: row.response };
  }

  /** Stores the answer of the request holding the claim; false when the claim was lost meanwhile. */
  async complete(id: string, claimToken: string, statusCode: number, response: string): Promise<boolean> {
    const result = await this.repo.update(
      { id, claimToken, statusCode: IsNull() },
      { statusCode, response, lockedUntil: null },
    );
    return (result.affected ?? 0) > 0;
  }

  /** Gives the key up (the request failed in a way a retry may fix), if this request still holds it. */
  async release(id: string, claimToken: string): Promise<void> {
    await this.repo.delete({ id, claimToken });
  }

  /** Deletes every expired row. */
  async purgeExpired(now = new Date()): Promise<number> {
    const result = await this.repo
      .createQueryBuilder()
      .delete()
      .from(IdempotencyKeyEntity)
      .where('expires_at <= :now', { now })
      .execute();
    return result.affected ?? 0;
  }

  private async takeOver(fresh: IdempotencyKeyEntity, now: Date): Promise<void> {
    await this.repo
      .createQueryBuilder()
      .update(IdempotencyKeyEntity)
      .set({ ...fresh })
      .where('id = :id', { id: fresh.id })
      .andWhere(
        new Brackets((stale) =>
          stale.where('expires_at <= :now', { now }).orWhere('(status_code IS NULL AND locked_until <= :now)', { now }),
        ),
      )
      .execute();
  }

  private purgeLazily(now: Date): void {
    if (now.getTime() < this.nextPurgeAt) {
      return;
    }
    this.nextPurgeAt = now.getTime() + PURGE_INTERVAL_MS;
    // Housekeeping must never fail or delay the request that happens to trigger it.
    this.purgeExpired(now).catch(() => undefined);
  }
}

function isStale(row: IdempotencyKeyEntity, now: Date): boolean {
  return (
    row.expiresAt.getTime() <= now.getTime() ||
    (row.statusCode === null && row.lockedUntil !== null && row.lockedUntil.getTime() <= now.getTime())
  );
}
