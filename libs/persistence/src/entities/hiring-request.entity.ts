import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A candidate a hiring request offers (engine.md §13 CandidateCard), with what instantiating it needs. */
export interface HiringCandidateEntry {
  id: string;
  name: string;
  role: string;
  department: string;
  level: string;
  skills: string[];
  rationale: string;
  estimatedMonthlyCost: number;
  templateSource: string | null;
  personalityPreset: string;
  modelProvider: string;
  modelId: string;
  modelTier: string;
}

/**
 * A request to hire one agent (engine.md §13 HiringRequest): who asked, for what, its candidates, the
 * decision and the agent it became. Written by the hiring module only; every change is a
 * compare-and-set on `version`.
 */
@Entity({ name: 'hiring_requests' })
@Index(['status', 'createdAt'])
@Index(['createdAt'])
export class HiringRequestEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** A username, or `agent:<name>` for a request an agent filed through its tool. */
  @Column({ type: 'varchar', length: 256 })
  requestedBy!: string;

  /** The department's name key. */
  @Column({ type: 'varchar', length: 128 })
  department!: string;

  @Column({ type: 'varchar', length: 100 })
  role!: string;

  @Column({ type: 'varchar', length: 16 })
  level!: string;

  @Column({ type: 'simple-json' })
  requiredSkills!: string[];

  @Column({ type: 'text' })
  reason!: string;

  @Column({ type: 'float', nullable: true })
  budgetLimitMonthly!: number | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  templateName!: string | null;

  /** pending, approved, rejected, instantiated. */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Column({ type: 'simple-json' })
  candidates!: HiringCandidateEntry[];

  @Column({ type: 'varchar', length: 36, nullable: true })
  selectedCandidateId!: string | null;

  /** The `org:hire` approval item deciding it, when a second person decides. */
  @Index()
  @Column({ type: 'varchar', length: 36, nullable: true })
  approvalId!: string | null;

  /** Who decided: the filer (approved by filing), the approval item's decider, or null while pending. */
  @Column({ type: 'varchar', length: 256, nullable: true })
  decidedBy!: string | null;

  @Column({ type: 'text', nullable: true })
  decisionReason!: string | null;

  /** The agent instantiated from it. */
  @Column({ type: 'varchar', length: 36, nullable: true })
  agentId!: string | null;

  @Column({ type: 'integer' })
  version!: number;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
