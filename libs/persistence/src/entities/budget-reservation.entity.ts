import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A model call's estimated cost, reserved before the call starts so that concurrent calls on any
 * replica count it against the limits. The call's cost record settles it (the row goes); a call
 * that failed releases it; one whose replica died is settled at its estimate by recovery and kept
 * as `recovered`, the mark of a cost record that carries an estimate.
 */
@Entity({ name: 'budget_reservations' })
@Index(['state', 'expiresAt'])
@Index(['state', 'agentId'])
@Index(['state', 'taskId'])
export class BudgetReservationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  taskId!: string | null;

  @Column({ type: 'varchar', length: 100 })
  provider!: string;

  @Column({ type: 'varchar', length: 200 })
  model!: string;

  @Column({ type: 'float' })
  estimateUsd!: number;

  /** open | recovered */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  /** The replica that made the call. */
  @Column({ type: 'varchar', length: 80 })
  owner!: string;

  @Column()
  createdAt!: Date;

  /** After this, an open reservation belongs to a call that can no longer be running. */
  @Column()
  expiresAt!: Date;

  /** The cost record recovery wrote at the estimate. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  costRecordId!: string | null;
}
