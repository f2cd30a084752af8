import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A project: a named body of work with a team, a lead and a budget. */
@Entity({ name: 'projects' })
// The list's filters, each with its sort (created_at, then id) behind it.
@Index(['createdAt', 'id'])
@Index(['status', 'createdAt', 'id'])
@Index(['lead', 'createdAt', 'id'])
export class ProjectEntity {
  /** `proj-<12 hex>`. */
  @PrimaryColumn({ type: 'varchar', length: 32 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 200 })
  nameKey!: string;

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'simple-json' })
  team!: string[];

  @Column({ type: 'varchar', length: 128, nullable: true })
  lead!: string | null;

  @Column({ type: 'simple-json' })
  taskIds!: string[];

  /** ISO 8601 date or date-time, as given. */
  @Column({ type: 'varchar', length: 40, nullable: true })
  deadline!: string | null;

  @Column({ type: 'float', default: 0 })
  budget!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
