import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { JsonObject, JsonValue } from './json';

/** A department of the company; names are unique case-insensitively (`nameKey`). */
@Entity({ name: 'departments' })
export class DepartmentEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 128 })
  name!: string;

  /** Lower-cased name: the lookup key. */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 128 })
  nameKey!: string;

  /** Display order (the list's order). */
  @Index()
  @Column({ type: 'integer' })
  position!: number;

  /** The head's role (or agent name); null while vacant. */
  @Column({ type: 'varchar', length: 200, nullable: true })
  head!: string | null;

  @Column({ type: 'float', default: 0 })
  budgetPercent!: number;

  @Column({ type: 'varchar', length: 16, nullable: true })
  autonomyLevel!: string | null;

  @Column({ type: 'simple-json' })
  teams!: JsonValue[];

  @Column({ type: 'simple-json' })
  reportingLines!: JsonValue[];

  @Column({ type: 'simple-json' })
  policies!: JsonObject;

  /** Explicit ceremony policy; null means inherit. */
  @Column({ type: 'simple-json', nullable: true })
  ceremonyPolicy!: JsonObject | null;

  /** Bumped on every write: compare-and-set for concurrent edits. */
  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
