import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The risk one tool call took (spec "Risk score"), written by the budget module when the call passed
 * the security checks. Kept 7 days: the risk budget's limits and the risk-trends report read these.
 */
@Entity({ name: 'risk_records' })
@Index(['createdAt'])
@Index(['agentId', 'createdAt'])
@Index(['taskId', 'createdAt'])
export class RiskRecordEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 64 })
  taskId!: string;

  @Column({ type: 'varchar', length: 64 })
  toolName!: string;

  /** category:action, as the security module's table classifies the tool. */
  @Column({ type: 'varchar', length: 128 })
  actionType!: string;

  /** low, medium, high, critical. */
  @Column({ type: 'varchar', length: 16 })
  riskLevel!: string;

  @Column({ type: 'float' })
  riskUnits!: number;

  @Column()
  createdAt!: Date;
}
