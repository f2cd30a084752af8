import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * One model call's cost (amounts in the configured currency; the field keeps its historic name).
 * Pages read newest first with the id as tie-break, so each filter's index ends in (timestamp, id).
 */
@Entity({ name: 'cost_records' })
@Index(['timestamp', 'id'])
@Index(['agentId', 'timestamp', 'id'])
@Index(['taskId', 'timestamp', 'id'])
export class CostRecordEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  taskId!: string | null;

  @Column({ type: 'varchar', length: 100 })
  provider!: string;

  @Column({ type: 'varchar', length: 200 })
  model!: string;

  @Column({ type: 'integer' })
  inputTokens!: number;

  @Column({ type: 'integer' })
  outputTokens!: number;

  @Column({ type: 'float' })
  costUsd!: number;

  /** productive | coordination | system */
  @Column({ type: 'varchar', length: 16 })
  callCategory!: string;

  @Column()
  timestamp!: Date;
}
