import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A one-time WebSocket ticket (only its SHA-256 is stored); consumed atomically by deletion. */
@Entity({ name: 'ws_tickets' })
@Index(['userId'])
export class WsTicketEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  ticketHash!: string;

  @Column({ type: 'varchar', length: 36 })
  userId!: string;

  @Column({ type: 'varchar', length: 64 })
  sessionId!: string;

  @Column()
  createdAt!: Date;

  @Column()
  expiresAt!: Date;
}
