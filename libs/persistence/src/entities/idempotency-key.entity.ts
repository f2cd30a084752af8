import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One claimed `Idempotency-Key`. The id is a SHA-256 over the key and its scope (actor, method, route,
 * path parameters), so the raw key is never stored and one key on two resources is two rows. A row
 * without a status is still in flight; its lease lets a crashed request's key be claimed again.
 */
@Entity({ name: 'idempotency_keys' })
@Index(['expiresAt'])
export class IdempotencyKeyEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  /** SHA-256 of the request's canonical JSON (body and query). */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  /** Who holds the claim: only the request that claimed the key completes or releases it. */
  @Column({ type: 'varchar', length: 36 })
  claimToken!: string;

  /** The stored response's status; null while the first request is in flight. */
  @Column({ type: 'integer', nullable: true })
  statusCode!: number | null;

  /** The stored response (JSON); null while in flight. */
  @Column({ type: 'text', nullable: true })
  response!: string | null;

  /** An in-flight claim older than this is abandoned (the process died) and may be claimed again. */
  @Column({ type: Date, nullable: true })
  lockedUntil!: Date | null;

  @Column()
  createdAt!: Date;

  @Column()
  expiresAt!: Date;
}
