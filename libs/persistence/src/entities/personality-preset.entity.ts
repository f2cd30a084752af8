import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A custom personality preset (built-ins live in code and are never stored). */
@Entity({ name: 'personality_presets' })
export class PersonalityPresetEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'simple-json' })
  personality!: Record<string, unknown>;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
