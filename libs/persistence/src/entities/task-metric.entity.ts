import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One finished task run of one agent: the input of performance summaries and activity feeds. */
@Entity({ name: 'task_metrics' })
@Index(['agentId', 'completedAt'])
@Index(['completedAt'])
export class TaskMetricEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 64 })
  taskId!: string;

  @Column({ type: 'varchar', length: 32 })
  taskType!: string;

  @Column({ type: Date, nullable: true })
  startedAt!: Date | null;

  @Column()
  completedAt!: Date;

  @Column({ type: 'boolean' })
  isSuccess!: boolean;

  @Column({ type: 'float' })
  durationSeconds!: number;

  @Column({ type: 'float' })
  costUsd!: number;

  @Column({ type: 'integer' })
  turnsUsed!: number;

  @Column({ type: 'integer' })
  tokensUsed!: number;

  @Column({ type: 'float', nullable: true })
  qualityScore!: number | null;

  @Column({ type: 'float', nullable: true })
  collaborationScore!: number | null;

  @Column({ type: 'varchar', length: 16 })
  complexity!: string;
}
