import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** One tool call an agent made during a run (the `tool_used` activity). Arguments are not kept. */
@Entity({ name: 'tool_invocations' })
@Index(['timestamp'])
@Index(['agentId', 'timestamp'])
@Index(['taskId', 'timestamp'])
export class ToolInvocationEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  taskId!: string | null;

  @Column({ type: 'varchar', length: 64 })
  toolName!: string;

  @Column({ type: 'boolean' })
  success!: boolean;

  @Column({ type: 'integer' })
  durationMs!: number;

  /** The failure as the model saw it, clipped. */
  @Column({ type: 'varchar', length: 512, nullable: true })
  error!: string | null;

  @Column()
  timestamp!: Date;
}
