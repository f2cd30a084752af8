import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import type { JsonObject } from './json';

/**
 * A meeting held (or being held): its type, protocol, status and, once completed, its minutes (in
 * their wire shape). Written by the meetings module only; others read through its service.
 */
@Entity({ name: 'meetings' })
// The list's filters, each with its sort (created_at, then id) behind it; the scheduler reads the
// latest start of a type through the type's index.
@Index(['createdAt', 'id'])
@Index(['status', 'createdAt', 'id'])
@Index(['meetingTypeName', 'createdAt', 'id'])
export class MeetingEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  id!: string;

  @Column({ type: 'varchar', length: 128 })
  meetingTypeName!: string;

  /** round_robin, position_papers or structured_phases. */
  @Column({ type: 'varchar', length: 32 })
  protocolType!: string;

  /** MeetingStatus. */
  @Column({ type: 'varchar', length: 32 })
  status!: string;

  /** The trigger's event name; null for a scheduled meeting. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  triggerEvent!: string | null;

  @Column({ type: 'integer' })
  tokenBudget!: number;

  /** Participant id -> display name, in participant order (the leader first). */
  @Column({ type: 'simple-json' })
  participantNames!: Record<string, string>;

  /** Present exactly when completed. */
  @Column({ type: 'simple-json', nullable: true })
  minutes!: JsonObject | null;

  /** Present exactly when failed or budget_exhausted. */
  @Column({ type: 'text', nullable: true })
  errorMessage!: string | null;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
