import { Column, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

/** A failed login for an account name (existing or not), for the lockout rule. */
@Entity({ name: 'login_failures' })
@Index(['username', 'failedAt'])
export class LoginFailureEntity {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 128 })
  username!: string;

  @Column()
  failedAt!: Date;
}
