import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { JsonValue } from './json';

/**
 * A run that waits for a person: everything needed to continue it on any replica (the conversation,
 * the pending tool call, turns and tokens used, the model) and its approval item. Written by the
 * engine only. `state` moves parked → decided → resumed, each step a compare-and-set, so a decision
 * resumes the run exactly once.
 */
@Entity({ name: 'parked_runs' })
@Index(['state', 'decidedAt'])
@Index(['taskId', 'state'])
export class ParkedRunEntity {
  /** The approval item's id: one parked run per item. */
  @PrimaryColumn({ type: 'varchar', length: 64 })
  approvalId!: string;

  @Column({ type: 'varchar', length: 64 })
  taskId!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 64 })
  provider!: string;

  @Column({ type: 'varchar', length: 256 })
  model!: string;

  /** The conversation so far (chat messages), without the pending call's result. */
  @Column({ type: 'simple-json' })
  messages!: JsonValue[];

  /** The escalated tool call: `{id, name, arguments}`. */
  @Column({ type: 'simple-json' })
  pendingCall!: JsonValue;

  @Column({ type: 'integer' })
  turns!: number;

  @Column({ type: 'integer' })
  inputTokens!: number;

  @Column({ type: 'integer' })
  outputTokens!: number;

  /** Whether the task had a worktree of its own when it parked (the resumed run picks it up). */
  @Column({ type: 'boolean' })
  hasWorktree!: boolean;

  /** parked, decided or resumed. */
  @Column({ type: 'varchar', length: 16 })
  state!: string;

  @Column({ type: 'boolean', nullable: true })
  approved!: boolean | null;

  @Column({ type: 'text', nullable: true })
  decisionReason!: string | null;

  /** On a refusal: end the run (the task is blocked) instead of telling the agent and going on. */
  @Column({ type: 'boolean', nullable: true })
  endRun!: boolean | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  decidedBy!: string | null;

  /** The replica that resumed it. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  resumedBy!: string | null;

  @Column()
  createdAt!: Date;

  @Column({ type: Date, nullable: true })
  decidedAt!: Date | null;

  @Column({ type: Date, nullable: true })
  resumedAt!: Date | null;
}
