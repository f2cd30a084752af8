import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A request for a human decision (engine.md §12). Written by the approvals module only; a decision is
 * a compare-and-set on `status = 'pending'` and `version`, so of two concurrent decisions one wins.
 * `on_timeout`, `escalation_step` and `assigned_role` are the timeout policy's state.
 */
@Entity({ name: 'approval_items' })
// The list's filters, each with its sort (created_at, then id) behind it.
@Index(['createdAt', 'id'])
@Index(['status', 'createdAt', 'id'])
@Index(['riskLevel', 'createdAt', 'id'])
@Index(['actionType', 'createdAt', 'id'])
// The timeout sweep: pending items by deadline.
@Index(['status', 'expiresAt'])
export class ApprovalItemEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 128 })
  actionType!: string;

  @Column({ type: 'varchar', length: 256 })
  title!: string;

  @Column({ type: 'text' })
  description!: string;

  /** An agent id, a username, or `system`. */
  @Column({ type: 'varchar', length: 256 })
  requestedBy!: string;

  @Column({ type: 'varchar', length: 16 })
  riskLevel!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  taskId!: string | null;

  /** The department whose manager may decide (the requesting agent's). */
  @Column({ type: 'varchar', length: 128, nullable: true })
  department!: string | null;

  @Column({ type: 'simple-json' })
  metadata!: Record<string, string>;

  @Column({ type: 'varchar', length: 256, nullable: true })
  decidedBy!: string | null;

  @Column({ type: 'text', nullable: true })
  decisionReason!: string | null;

  /** What a passed deadline does: approve, deny or escalate (null: nothing, no deadline). */
  @Column({ type: 'varchar', length: 16, nullable: true })
  onTimeout!: string | null;

  /** Position in the escalation chain; -1 outside it. */
  @Column({ type: 'integer' })
  escalationStep!: number;

  /** The chain step's role the item waits on (null outside the chain). */
  @Column({ type: 'varchar', length: 64, nullable: true })
  assignedRole!: string | null;

  @Column({ type: 'integer' })
  version!: number;

  @Column()
  createdAt!: Date;

  @Column({ type: Date, nullable: true })
  decidedAt!: Date | null;

  @Column({ type: Date, nullable: true })
  expiresAt!: Date | null;
}
