import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

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

  /** Display order. */
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
  teams!: unknown[];

  @Column({ type: 'simple-json' })
  reportingLines!: unknown[];

  @Column({ type: 'simple-json' })
  policies!: Record<string, unknown>;

  /** Explicit ceremony policy; null means inherit. */
  @Column({ type: 'simple-json', nullable: true })
  ceremonyPolicy!: Record<string, unknown> | null;

  /** Bumped on every write: compare-and-set for concurrent edits. */
  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
