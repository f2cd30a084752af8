import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One checklist step as stored (see the domain's OnboardingStep). */
export interface OnboardingStepEntry {
  name: string;
  state: string;
  taskId: string;
  attempts: number;
  reason: string | null;
  summary: string | null;
  completedAt: string | null;
}

/**
 * A new agent's onboarding checklist (engine.md §13): one task per step, run by the agent itself.
 * One per agent. Written by the hiring module only; every change is a compare-and-set on `version`.
 */
@Entity({ name: 'agent_onboardings' })
@Index(['completedAt'])
export class AgentOnboardingEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 200 })
  agentName!: string;

  @Column({ type: 'varchar', length: 36, nullable: true })
  hiringRequestId!: string | null;

  @Column({ type: 'simple-json' })
  steps!: OnboardingStepEntry[];

  /** The `onboarded` career event's id, chosen up front so that it is written once. */
  @Column({ type: 'varchar', length: 36 })
  onboardedEventId!: string;

  @Column({ type: 'integer' })
  version!: number;

  @Column()
  startedAt!: Date;

  @Column({ type: Date, nullable: true })
  completedAt!: Date | null;

  @Column()
  updatedAt!: Date;
}
