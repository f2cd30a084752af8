import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { JsonObject } from './json';

/**
 * A Model Context Protocol server agents may use: how to reach it (a command on stdio or a Streamable
 * HTTP URL), who may use it, the action type of each of its tools, and the tools it last listed.
 * Secrets (environment values, the auth header's value) are stored encrypted, never in clear.
 */
@Entity({ name: 'tool_servers' })
export class ToolServerEntity {
  @PrimaryColumn({ type: 'varchar', length: 40 })
  name!: string;

  /** `stdio` or `http`. */
  @Column({ type: 'varchar', length: 16 })
  transport!: string;

  @Column({ type: 'varchar', length: 1024, nullable: true })
  command!: string | null;

  @Column({ type: 'simple-json' })
  args!: string[];

  /** The names of the environment variables the server is given; their values are in `secrets`. */
  @Column({ type: 'simple-json' })
  envNames!: string[];

  @Column({ type: 'varchar', length: 2048, nullable: true })
  url!: string | null;

  @Column({ type: 'varchar', length: 128, nullable: true })
  authHeaderName!: string | null;

  /** AES-256-GCM envelope of `{ env, auth }`; null when the server has no secret. */
  @Column({ type: 'text', nullable: true })
  secrets!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  secretsKeyId!: string | null;

  @Column({ type: 'simple-json' })
  allowedDepartments!: string[];

  @Column({ type: 'simple-json' })
  allowedAgents!: string[];

  /** Tool name → action type set by an operator (over the one derived from the annotations). */
  @Column({ type: 'simple-json' })
  toolActions!: Record<string, string>;

  /** The tools the server last listed: name, description, input schema and annotations. */
  @Column({ type: 'simple-json' })
  tools!: JsonObject[];

  @Column({ type: Date, nullable: true })
  toolsListedAt!: Date | null;

  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
