import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';

import { UserEntity } from './user.entity';

/** One signed-in session; its id is the JWT `jti`. Rows survive restarts and are shared by replicas. */
@Entity({ name: 'sessions' })
@Index(['userId'])
export class SessionEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  userId!: string;

  @ManyToOne(() => UserEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id' })
  user?: UserEntity;

  @Column({ type: 'varchar', length: 64, nullable: true })
  ipAddress!: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  userAgent!: string | null;

  @Column()
  createdAt!: Date;

  @Column()
  lastActiveAt!: Date;

  @Column()
  expiresAt!: Date;

  @Column({ type: Date, nullable: true })
  revokedAt!: Date | null;
}
