import { Column, Entity, PrimaryColumn } from 'typeorm';

/** Database tier of the runtime settings registry: one row per overridden (namespace, key). */
@Entity({ name: 'settings' })
export class SettingEntity {
  @PrimaryColumn({ type: 'varchar', length: 64 })
  namespace!: string;

  @PrimaryColumn({ type: 'varchar', length: 128 })
  key!: string;

  /** Always a string on the wire; sensitive values are stored encrypted. */
  @Column({ type: 'text' })
  value!: string;

  @Column()
  updatedAt!: Date;
}
