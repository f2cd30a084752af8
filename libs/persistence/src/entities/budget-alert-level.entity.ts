import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * The alert level last announced for one scope (the company's billing period, an agent's day, a
 * risk limit's day): an alert fires only on the compare-and-set that raises it, once across replicas.
 */
@Entity({ name: 'budget_alert_levels' })
export class BudgetAlertLevelEntity {
  /** e.g. `period:2026-03-01`. */
  @PrimaryColumn({ type: 'varchar', length: 160 })
  scope!: string;

  /** Rank of the level (0 normal … 3 hard_stop). */
  @Column({ type: 'integer' })
  rank!: number;

  @Column()
  updatedAt!: Date;
}
