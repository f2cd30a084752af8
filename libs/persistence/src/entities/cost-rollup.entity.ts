import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * Running totals of cost records, kept in the same transaction as each record: per hour and agent
 * (`hour`), per day and agent (`day`), and per day, agent and task (`task`). Summaries and spend
 * checks read these instead of grouping the raw records. `taskId` is '' where the grain has no task
 * (and for records without one).
 */
@Entity({ name: 'cost_rollups' })
@Index(['grain', 'agentId', 'bucket'])
@Index(['grain', 'taskId', 'bucket'])
export class CostRollupEntity {
  /** hour | day | task */
  @PrimaryColumn({ type: 'varchar', length: 8 })
  grain!: string;

  /** Start of the hour or the day (UTC). */
  @PrimaryColumn()
  bucket!: Date;

  @PrimaryColumn({ type: 'varchar', length: 36 })
  agentId!: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  taskId!: string;

  @Column({ type: 'float' })
  costUsd!: number;

  @Column({ type: 'bigint' })
  inputTokens!: string;

  @Column({ type: 'bigint' })
  outputTokens!: string;

  @Column({ type: 'integer' })
  records!: number;
}
