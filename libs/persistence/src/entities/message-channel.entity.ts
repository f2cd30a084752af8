import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A message channel: the seven default topics, and direct channels opened between two agents. */
@Entity({ name: 'message_channels' })
export class MessageChannelEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  name!: string;

  /** topic, direct or broadcast. */
  @Column({ type: 'varchar', length: 16 })
  type!: string;

  /** Agent names; empty for a topic anyone may read. */
  @Column({ type: 'simple-json' })
  subscribers!: string[];

  @Column()
  createdAt!: Date;
}
