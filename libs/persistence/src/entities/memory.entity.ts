import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

import type { JsonObject } from './json';

/**
 * An agent's memory entry (engine.md §14 MemoryEntry, plus the level, project and task it came
 * from). The vector is stored with the row as little-endian float32 bytes; `embedder` names the model
 * and size that made it, so a change of embedder can find what it must embed again. Written by the
 * memory module only. The vector column's type differs per dialect (blob, bytea): the columns are
 * declared here and each dialect's entity adds the vector.
 */
export abstract class MemoryEntryColumns {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 36 })
  agentId!: string;

  /** working, episodic, semantic, procedural, social. */
  @Column({ type: 'varchar', length: 16 })
  category!: string;

  /** persistent, project or session: where the entry may be retrieved. */
  @Column({ type: 'varchar', length: 16 })
  level!: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  project!: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  taskId!: string | null;

  @Column({ type: 'text' })
  content!: string;

  @Column({ type: 'simple-json' })
  metadata!: JsonObject;

  /** `provider/model/dims` of the vector. */
  @Column({ type: 'varchar', length: 320 })
  embedder!: string;

  /** Set once the agent's memory is archived (offboarding): read-only from then on. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  archiveId!: string | null;

  @Column()
  createdAt!: Date;

  @Column({ type: Date, nullable: true })
  updatedAt!: Date | null;

  @Column({ type: Date, nullable: true })
  expiresAt!: Date | null;

  embedding!: Buffer;
}

/**
 * An organisation fact (engine.md §14 org memory: core_policy, adr, procedure, convention), shared
 * by every agent's retrieval. Written by the memory module only.
 */
export abstract class OrgFactColumns {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  @Column({ type: 'varchar', length: 16 })
  category!: string;

  @Column({ type: 'text' })
  content!: string;

  /** The department whose manager wrote it; null for a company-wide fact. */
  @Column({ type: 'varchar', length: 128, nullable: true })
  department!: string | null;

  /** Who wrote it: a user's name, or `agent:<name>` for a promoted or approved proposal. */
  @Column({ type: 'varchar', length: 200 })
  author!: string;

  @Column({ type: 'varchar', length: 320 })
  embedder!: string;

  @Column()
  createdAt!: Date;

  embedding!: Buffer;
}

@Entity({ name: 'memory_entries' })
@Index(['agentId', 'createdAt', 'id'])
@Index(['expiresAt'])
export class MemoryEntrySqliteEntity extends MemoryEntryColumns {
  @Column({ type: 'blob' })
  declare embedding: Buffer;
}

@Entity({ name: 'memory_entries' })
@Index(['agentId', 'createdAt', 'id'])
@Index(['expiresAt'])
export class MemoryEntryPostgresEntity extends MemoryEntryColumns {
  @Column({ type: 'bytea' })
  declare embedding: Buffer;
}

@Entity({ name: 'org_facts' })
@Index(['createdAt', 'id'])
export class OrgFactSqliteEntity extends OrgFactColumns {
  @Column({ type: 'blob' })
  declare embedding: Buffer;
}

@Entity({ name: 'org_facts' })
@Index(['createdAt', 'id'])
export class OrgFactPostgresEntity extends OrgFactColumns {
  @Column({ type: 'bytea' })
  declare embedding: Buffer;
}

/**
 * A vector made for an entry or a fact by the embedder a re-embedding moves to, kept apart until every
 * row has one: retrieval goes on with the rows' own vectors (the old embedder) meanwhile, and the
 * switch copies these over in one transaction.
 */
export abstract class MemoryPendingVectorColumns {
  /** `entry` (memory_entries) or `fact` (org_facts). */
  @PrimaryColumn({ type: 'varchar', length: 8 })
  kind!: string;

  @PrimaryColumn({ type: 'varchar', length: 36 })
  id!: string;

  /** `provider/model/dims` of the vector. */
  @Column({ type: 'varchar', length: 320 })
  embedder!: string;

  embedding!: Buffer;
}

@Entity({ name: 'memory_pending_vectors' })
export class MemoryPendingVectorSqliteEntity extends MemoryPendingVectorColumns {
  @Column({ type: 'blob' })
  declare embedding: Buffer;
}

@Entity({ name: 'memory_pending_vectors' })
export class MemoryPendingVectorPostgresEntity extends MemoryPendingVectorColumns {
  @Column({ type: 'bytea' })
  declare embedding: Buffer;
}

/**
 * The embedder memory retrieval uses (one row, id `current`), and a re-embedding in progress toward
 * the configured one: its target, how many rows it has done of how many. Survives restarts, so the
 * replica that takes the work next resumes it.
 */
@Entity({ name: 'memory_embedder_state' })
export class MemoryEmbedderStateEntity {
  @PrimaryColumn({ type: 'varchar', length: 16 })
  id!: string;

  @Column({ type: 'varchar', length: 200 })
  provider!: string;

  @Column({ type: 'varchar', length: 200 })
  model!: string;

  @Column({ type: 'integer', nullable: true })
  dims!: number | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  targetProvider!: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  targetModel!: string | null;

  @Column({ type: 'integer', nullable: true })
  targetDims!: number | null;

  /** The target's vector marker, known from its first batch. */
  @Column({ type: 'varchar', length: 320, nullable: true })
  targetMarker!: string | null;

  @Column({ type: 'integer', default: 0 })
  done!: number;

  @Column({ type: 'integer', default: 0 })
  total!: number;

  @Column({ type: Date, nullable: true })
  startedAt!: Date | null;

  @Column()
  updatedAt!: Date;
}

/** A memory entry row as the memory module reads and writes it, on either dialect. */
export type MemoryEntryEntity = MemoryEntryColumns;
/** An org fact row, on either dialect. */
export type OrgFactEntity = OrgFactColumns;
/** A pending vector row, on either dialect. */
export type MemoryPendingVectorEntity = MemoryPendingVectorColumns;
