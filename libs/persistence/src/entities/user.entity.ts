import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/** A human account (and the reserved `system` CLI identity). */
@Entity({ name: 'users' })
// The list's order.
@Index(['createdAt', 'username'])
export class UserEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 128, unique: true })
  username!: string;

  /** Argon2id PHC string; the system identity holds an unusable random hash. */
  @Column({ type: 'text' })
  passwordHash!: string;

  @Column({ type: 'varchar', length: 32 })
  role!: string;

  @Column({ type: 'boolean', default: false })
  mustChangePassword!: boolean;

  /** The department a manager has authority over (null: none; other roles ignore it). */
  @Column({ type: 'varchar', length: 128, nullable: true })
  department!: string | null;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
