import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One delegation: an agent handed part of its task to another as a subtask. The loop-prevention
 * checks (dedup, per-pair rate, circuit breaker) are computed from these rows, so every replica
 * sees the same state; the activity feed shows them as delegation_sent and delegation_received.
 */
@Entity({ name: 'delegation_records' })
// The pair's recent delegations (loop prevention) and the delegator's activity feed.
@Index(['delegatorId', 'delegateeId', 'timestamp'])
// The delegatee's activity feed.
@Index(['delegateeId', 'timestamp'])
// The organisation's activity feed.
@Index(['timestamp'])
export class DelegationRecordEntity {
  /** The delegation id. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  delegatorId!: string;

  @Column({ type: 'varchar', length: 200 })
  delegatorName!: string;

  @Column({ type: 'varchar', length: 36 })
  delegateeId!: string;

  @Column({ type: 'varchar', length: 200 })
  delegateeName!: string;

  /** The delegator's task the work was split from. */
  @Column({ type: 'varchar', length: 64 })
  originalTaskId!: string;

  /** The subtask made for the delegatee. */
  @Column({ type: 'varchar', length: 64 })
  delegatedTaskId!: string;

  @Column({ type: 'varchar', length: 256 })
  title!: string;

  /** sha256 of the normalised title and description: what the dedup check compares. */
  @Column({ type: 'varchar', length: 64 })
  fingerprint!: string;

  /** The delegator's extra guidance for the delegatee; empty when none. */
  @Column({ type: 'text' })
  refinement!: string;

  @Column()
  timestamp!: Date;
}
