import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** Career history: hired, onboarded, promoted, demoted, status_changed, fired, offboarded. */
@Entity({ name: 'agent_lifecycle_events' })
@Index(['timestamp'])
@Index(['agentId', 'timestamp'])
export class AgentLifecycleEventEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 200 })
  agentName!: string;

  @Column({ type: 'varchar', length: 32 })
  eventType!: string;

  @Column()
  timestamp!: Date;

  @Column({ type: 'varchar', length: 200 })
  initiatedBy!: string;

  @Column({ type: 'text', default: '' })
  details!: string;

  @Column({ type: 'simple-json' })
  metadata!: Record<string, string>;
}
