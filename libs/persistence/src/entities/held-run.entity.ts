import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A task whose run a budget limit stopped (in flight, at its start, or after a recovery): the task
 * stays where the run left it, and this row says why, what the refused call would have cost, and
 * whether it was let go again. Written by the engine only. `state` moves held → released once, a
 * compare-and-set: whoever makes that move queues the task again, so a held task resumes exactly
 * once whichever replica sees its limit lift. Released rows stay as the task's history (the
 * activity feed reads them).
 */
@Entity({ name: 'held_runs' })
@Index(['state', 'heldAt'])
@Index(['taskId', 'state'])
@Index(['agentId', 'heldAt'])
export class HeldRunEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 64 })
  taskId!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  /** The routed provider and model of the refused call. */
  @Column({ type: 'varchar', length: 64 })
  provider!: string;

  @Column({ type: 'varchar', length: 256 })
  model!: string;

  /** The refused call's estimated cost: the task resumes once a call of that size fits again. */
  @Column({ type: 'float' })
  estimateUsd!: number;

  /** Why the run stopped: `budget_exhausted`. */
  @Column({ type: 'varchar', length: 32 })
  reason!: string;

  /** The limit that refused (`monthly`, `department`, `agent_daily`, `task`, ...), when known. */
  @Column({ type: 'varchar', length: 32, nullable: true })
  limitName!: string | null;

  /** The refusal's error code (6000, 6001, ...). */
  @Column({ type: 'integer' })
  code!: number;

  /** The refusal's message. */
  @Column({ type: 'text' })
  detail!: string;

  /** held, then released (queued again) or dropped (the task moved on without it). */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: Date })
  heldAt!: Date;

  @Column({ type: Date, nullable: true })
  releasedAt!: Date | null;
}
