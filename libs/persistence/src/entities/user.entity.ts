import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A human account (and the reserved `system` CLI identity). */
@Entity({ name: 'users' })
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

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
