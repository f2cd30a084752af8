import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { JsonObject } from './json';

/**
 * A message an agent (or the system) posted to a channel. `sender` is `from` on the wire. Each
 * channel keeps its newest messages only (see MESSAGE_LIMITS), pruned when one is posted.
 */
@Entity({ name: 'messages' })
// The list reads a channel newest first (and everything newest first), the id breaking ties.
@Index(['channel', 'timestamp', 'id'])
@Index(['timestamp', 'id'])
export class MessageEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column()
  timestamp!: Date;

  @Column({ type: 'varchar', length: 256 })
  sender!: string;

  /** The recipient: an agent, a channel or `all`. */
  @Column({ type: 'varchar', length: 256 })
  recipient!: string;

  @Column({ type: 'varchar', length: 32 })
  type!: string;

  @Column({ type: 'varchar', length: 16 })
  priority!: string;

  @Column({ type: 'varchar', length: 128 })
  channel!: string;

  @Column({ type: 'text' })
  content!: string;

  /** `[{type, ref}]`. */
  @Column({ type: 'simple-json' })
  attachments!: Array<{ type: string; ref: string }>;

  /** `{task_id, project_id, tokens_used, cost_usd, extra}`. */
  @Column({ type: 'simple-json' })
  metadata!: JsonObject;
}
