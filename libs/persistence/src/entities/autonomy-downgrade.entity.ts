import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * An automatic autonomy downgrade in force for one agent. It tightens the agent's resolved level
 * until a person sets the level again, which removes the row. Written by the security module only.
 */
@Entity({ name: 'autonomy_downgrades' })
export class AutonomyDowngradeEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 16 })
  originalLevel!: string;

  @Column({ type: 'varchar', length: 16 })
  currentLevel!: string;

  /** high_error_rate, budget_exhausted, security_incident. */
  @Column({ type: 'varchar', length: 32 })
  reason!: string;

  @Column({ type: 'varchar', length: 1024 })
  detail!: string;

  @Column()
  downgradedAt!: Date;
}
