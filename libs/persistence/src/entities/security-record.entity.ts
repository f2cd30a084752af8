import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One security decision: a tool call's verdict, an output scan's outcome, or an autonomy change.
 * Written by the security module only; the audit trail reads these rows. Never holds a scanned
 * secret: reasons name patterns, not matches.
 */
@Entity({ name: 'security_records' })
@Index(['createdAt', 'id'])
@Index(['agentId', 'createdAt'])
@Index(['agentId', 'kind', 'createdAt', 'id'])
@Index(['taskId', 'createdAt'])
@Index(['verdict', 'createdAt'])
export class SecurityRecordEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** tool_call, output_scan, autonomy_change, autonomy_downgrade. */
  @Column({ type: 'varchar', length: 32 })
  kind!: string;

  @Column({ type: 'varchar', length: 36, nullable: true })
  agentId!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  taskId!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  toolName!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  actionType!: string | null;

  /** allow, deny, escalate for tool calls; the scan outcome for output scans; the new level for autonomy. */
  @Column({ type: 'varchar', length: 16 })
  verdict!: string;

  /** What was applied: a shadow-mode deny is recorded with verdict deny and enforced allow. */
  @Column({ type: 'varchar', length: 16 })
  enforced!: string;

  @Column({ type: 'varchar', length: 16 })
  riskLevel!: string;

  @Column({ type: 'varchar', length: 1024 })
  reason!: string;

  @Column({ type: 'varchar', length: 16 })
  mode!: string;

  /** The pipeline step or detector pattern that decided. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  finding!: string | null;

  @Column({ type: 'integer', nullable: true })
  errorCode!: number | null;

  /** `system` for the pipeline's own records, else the user who made the change. */
  @Column({ type: 'varchar', length: 128 })
  actor!: string;

  @Column()
  createdAt!: Date;
}
