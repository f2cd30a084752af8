import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * A promotion or demotion (engine.md §13 PromotionRecord): applied at once, or pending a person's
 * decision on its `org:promote` approval item, then applied or dropped. `pendingKey` holds the
 * agent's id while the change is pending and null afterwards: a unique key, so an agent has at most
 * one pending change. The career event's id is chosen when the row is made, so it is written once.
 * Written by the promotions module only; every status change is a compare-and-set from `pending`.
 */
@Entity({ name: 'level_changes' })
@Index(['agentId', 'appliedAt'])
export class LevelChangeEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  @Column({ type: 'varchar', length: 200 })
  agentName!: string;

  /** promotion or demotion. */
  @Column({ type: 'varchar', length: 16 })
  direction!: string;

  @Column({ type: 'varchar', length: 16 })
  oldLevel!: string;

  @Column({ type: 'varchar', length: 16 })
  newLevel!: string;

  /** pending, applied, rejected (a person said no, or the item expired) or dropped (the agent moved on). */
  @Column({ type: 'varchar', length: 16 })
  status!: string;

  @Index({ unique: true })
  @Column({ type: 'varchar', length: 36, nullable: true })
  pendingKey!: string | null;

  @Column({ type: 'varchar', length: 36, nullable: true })
  approvalId!: string | null;

  /** Why: the criteria met, as the evaluation wrote them. */
  @Column({ type: 'text' })
  reason!: string;

  /** `system` for the schedule, else the person who asked for the evaluation. */
  @Column({ type: 'varchar', length: 200 })
  requestedBy!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  decidedBy!: string | null;

  @Column({ type: 'varchar', length: 36 })
  eventId!: string;

  @Column()
  createdAt!: Date;

  @Column({ type: Date, nullable: true })
  appliedAt!: Date | null;

  @Column({ type: Date, nullable: true })
  decidedAt!: Date | null;
}
