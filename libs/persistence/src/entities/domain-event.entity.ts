import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/**
 * Events crossing replicas: the row carries the payload, a NOTIFY carries only its id (payloads can
 * exceed NOTIFY's 8000 bytes). Rows are pruned after a short retention.
 */
@Entity({ name: 'domain_events' })
@Index(['createdAt'])
export class DomainEventEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 64 })
  channel!: string;

  @Column({ type: 'varchar', length: 128 })
  eventType!: string;

  @Column({ type: 'text' })
  payload!: string;

  @Column({ type: 'varchar', length: 64 })
  originId!: string;

  @Column()
  createdAt!: Date;
}
