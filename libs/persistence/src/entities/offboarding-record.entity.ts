import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One step of the pipeline as it ended: done or skipped, when, and what it did. */
export interface OffboardingStepLogEntry {
  step: string;
  outcome: string;
  at: string;
  detail: string;
}

/** One task of the fired agent and what became of it. */
export interface TaskHandoverEntry {
  taskId: string;
  title: string;
  /** assigned or in_progress: where it was when the pipeline took it. */
  fromStatus: string;
  priorityBefore: string;
  priorityAfter: string;
  /** planned, interrupted, reassigned, unassigned, moved. */
  outcome: string;
  /** The agent chosen to take it over (written before the task is moved, so a resumed step can tell). */
  toAgentId: string | null;
  toAgentName: string | null;
}

/**
 * A fired agent's offboarding (engine.md §13 FiringRequest + OffboardingRecord): the decision and the
 * pipeline's progress, so that a restart resumes after the last step done. One per agent (a unique
 * agent id): a second fire is a conflict. The ids of the career events and the team message are chosen
 * when the record is made, so that a resumed step writes each of them at most once. Written by the
 * offboarding module only; every write is a compare-and-set on `version`.
 */
@Entity({ name: 'offboarding_records' })
@Index(['completedAt'])
export class OffboardingRecordEntity {
  /** The firing request's id. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 200 })
  agentName!: string;

  /** The agent's department key when it was fired. */
  @Column({ type: 'varchar', length: 128 })
  department!: string;

  /** manual, performance, budget, project_completion. */
  @Column({ type: 'varchar', length: 32 })
  reason!: string;

  @Column({ type: 'text' })
  details!: string;

  /** The username of the person who fired the agent. */
  @Column({ type: 'varchar', length: 200 })
  requestedBy!: string;

  /** `requested`, or the last step done. */
  @Column({ type: 'varchar', length: 32 })
  step!: string;

  @Column({ type: 'integer' })
  version!: number;

  @Column({ type: 'simple-json' })
  stepLog!: OffboardingStepLogEntry[];

  @Column({ type: 'simple-json' })
  handover!: TaskHandoverEntry[];

  @Column({ type: 'varchar', length: 36 })
  firedEventId!: string;

  @Column({ type: 'varchar', length: 36 })
  offboardedEventId!: string;

  @Column({ type: 'varchar', length: 36 })
  teamMessageId!: string;

  /** The channel the team's notice went to, once sent. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  teamChannel!: string | null;

  /** Stays null while no memory backend exists. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  memoryArchiveId!: string | null;

  @Column({ type: 'integer' })
  orgMemoriesPromoted!: number;

  @Column()
  startedAt!: Date;

  @Column({ type: Date, nullable: true })
  completedAt!: Date | null;

  @Column()
  updatedAt!: Date;
}
