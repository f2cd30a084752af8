import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { JsonObject } from './json';

/**
 * One row of the append-only audit trail. `seq` numbers the rows without gaps; `hash` is the SHA-256
 * of the previous row's hash and this row's fields, so an edit or a deletion made directly in the
 * database breaks the chain at that row. The primary key on `seq` makes appends a compare-and-set:
 * of two writers that read the same tail, one inserts and the other retries on the new tail.
 */
@Entity({ name: 'audit_entries' })
@Index(['at', 'seq'])
@Index(['actor', 'at', 'seq'])
@Index(['action', 'at', 'seq'])
export class AuditEntryEntity {
  @PrimaryColumn({ type: 'integer' })
  seq!: number;

  @Column({ type: 'varchar', length: 64 })
  id!: string;

  @Column()
  at!: Date;

  @Column({ type: 'varchar', length: 256 })
  actor!: string;

  @Column({ type: 'varchar', length: 64 })
  action!: string;

  @Column({ type: 'varchar', length: 256, nullable: true })
  target!: string | null;

  @Column({ type: 'varchar', length: 16 })
  outcome!: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  requestId!: string | null;

  /** Redacted details. */
  @Column({ type: 'simple-json' })
  details!: JsonObject;

  @Column({ type: 'varchar', length: 64 })
  prevHash!: string;

  @Column({ type: 'varchar', length: 64 })
  hash!: string;
}
