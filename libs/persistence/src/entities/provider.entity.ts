import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JsonObject } from './json';

/** A runtime-managed model provider. Secrets are stored encrypted, never in clear. */
@Entity({ name: 'providers' })
export class ProviderEntity {
  @PrimaryColumn({ type: 'varchar', length: 100 })
  name!: string;

  @Column({ type: 'varchar', length: 32 })
  authType!: string;

  @Column({ type: 'varchar', length: 512, nullable: true })
  baseUrl!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  gatewayProvider!: string | null;

  @Column({ type: 'varchar', length: 100, nullable: true })
  family!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  preset!: string | null;

  /** Model entries: id, alias, costs, context size, latency. */
  @Column({ type: 'simple-json' })
  models!: JsonObject[];

  @Column({ type: 'simple-json' })
  degradation!: JsonObject;

  /** Request and token limits per minute, hour and day (snake_case keys; absent = unlimited). */
  @Column({ type: 'simple-json', nullable: true })
  quota!: JsonObject | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  oauthTokenUrl!: string | null;

  @Column({ type: 'varchar', length: 256, nullable: true })
  oauthClientId!: string | null;

  @Column({ type: 'varchar', length: 512, nullable: true })
  oauthScope!: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  customHeaderName!: string | null;

  /** AES-256-GCM envelope of the provider's secrets; null when it has none. */
  @Column({ type: 'text', nullable: true })
  secrets!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  secretsKeyId!: string | null;

  @Column({ type: Date, nullable: true })
  tosAcceptedAt!: Date | null;

  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
