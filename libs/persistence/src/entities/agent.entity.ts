import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { JsonObject } from './json';

/** An AI agent on the roster. `position` is the stored order (the setup wizard's agent_index). */
@Entity({ name: 'agents' })
@Index(['department'])
export class AgentEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  /** Lower-cased name: agents are looked up case-insensitively. */
  @Index({ unique: true })
  @Column({ type: 'varchar', length: 200 })
  nameKey!: string;

  @Column({ type: 'varchar', length: 100 })
  role!: string;

  /** Department name key (lower-cased). */
  @Column({ type: 'varchar', length: 128 })
  department!: string;

  @Column({ type: 'varchar', length: 16 })
  level!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Index()
  @Column({ type: 'integer' })
  position!: number;

  @Column({ type: 'varchar', length: 100, nullable: true })
  personalityPreset!: string | null;

  @Column({ type: 'simple-json' })
  personality!: JsonObject;

  @Column({ type: 'varchar', length: 100, nullable: true })
  modelProvider!: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  modelId!: string | null;

  /** small | medium | large: what the role asks of a model. */
  @Column({ type: 'varchar', length: 16 })
  modelTier!: string;

  @Column({ type: 'varchar', length: 16, nullable: true })
  autonomyLevel!: string | null;

  @Column({ type: 'float', nullable: true })
  budgetLimitMonthly!: number | null;

  /** Model parameters, memory, tools, authority and skills: typed by the engine. */
  @Column({ type: 'simple-json' })
  settings!: JsonObject;

  /** Bumped by every write of the row: the agent's ETag, and the compare-and-set of its edits. */
  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column()
  hiringDate!: Date;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
