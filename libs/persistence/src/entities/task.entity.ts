import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { JsonValue } from './json';

/**
 * A unit of work and its run state. `version` is the persisted optimistic-concurrency counter (every
 * write adds one); the `run*` columns say which replica is executing the task and when it last
 * proved it was alive, so a dead replica's task can be recovered.
 */
@Entity({ name: 'tasks' })
// The list's filters, each with its sort (created_at, then id) behind it, so a page is read in order.
@Index(['createdAt', 'id'])
@Index(['status', 'createdAt', 'id'])
@Index(['assigneeId', 'status'])
@Index(['project', 'createdAt', 'id'])
// LOWER(assigned_to), for the assignee filter's name match: an expression index, made by a migration.
@Index('IDX_tasks_assigned_to_lower', { synchronize: false })
export class TaskEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 256 })
  title!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ type: 'varchar', length: 16 })
  priority!: string;

  /** Project id. */
  @Column({ type: 'varchar', length: 64 })
  project!: string;

  @Column({ type: 'varchar', length: 256 })
  createdBy!: string;

  /** The assignee's name as shown on the wire. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  assignedTo!: string | null;

  /** The assignee's agent id (what the runtime, costs and metrics key on). */
  @Column({ type: 'varchar', length: 36, nullable: true })
  assigneeId!: string | null;

  @Column({ type: 'simple-json' })
  reviewers!: string[];

  @Column({ type: 'simple-json' })
  dependencies!: string[];

  @Column({ type: 'simple-json' })
  artifactsExpected!: JsonValue[];

  @Column({ type: 'simple-json' })
  acceptanceCriteria!: { description: string; met: boolean }[];

  @Column({ type: 'varchar', length: 16 })
  estimatedComplexity!: string;

  @Column({ type: 'float' })
  budgetLimit!: number;

  @Column({ type: 'varchar', length: 40, nullable: true })
  deadline!: string | null;

  @Column({ type: 'integer' })
  maxRetries!: number;

  @Column({ type: 'integer' })
  retryCount!: number;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  /** Why the task is where it is: the cancel reason, the last run's stop reason or failure. */
  @Column({ type: 'text', nullable: true })
  statusReason!: string | null;

  /** The agent's final answer of the run that completed the task, as the output scan left it. */
  @Column({ type: 'text', nullable: true })
  result!: string | null;

  /** The output scan withheld the final answer: `result` holds the withholding message. */
  @Column({ type: 'boolean', default: false })
  outputWithheld!: boolean;

  @Column({ type: 'varchar', length: 64, nullable: true })
  parentTaskId!: string | null;

  @Column({ type: 'simple-json' })
  delegationChain!: string[];

  @Column({ type: 'varchar', length: 16, nullable: true })
  taskStructure!: string | null;

  @Column({ type: 'varchar', length: 24 })
  coordinationTopology!: string;

  @Column({ type: 'integer' })
  version!: number;

  /** Replica executing the task now; null when no run holds it. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  runOwner!: string | null;

  @Column({ type: Date, nullable: true })
  runHeartbeatAt!: Date | null;

  @Column({ type: Date, nullable: true })
  startedAt!: Date | null;

  /** When the current run claimed the task (a parked run that resumes keeps it); null before the first run. */
  @Column({ type: Date, nullable: true })
  runStartedAt!: Date | null;

  @Column({ type: Date, nullable: true })
  completedAt!: Date | null;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
