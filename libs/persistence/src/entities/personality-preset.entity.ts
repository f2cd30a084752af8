import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JsonObject } from './json';

/** A custom personality preset (built-ins live in code and are never stored). */
@Entity({ name: 'personality_presets' })
export class PersonalityPresetEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'simple-json' })
  personality!: JsonObject;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
