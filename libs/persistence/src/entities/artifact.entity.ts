import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * What a task produced: metadata here, the content as one file per artifact in the artifact store
 * (`contentType` empty and `sizeBytes` 0 until content is uploaded).
 */
@Entity({ name: 'artifacts' })
// The list's filters, each with its sort (created_at, then id) behind it.
@Index(['createdAt', 'id'])
@Index(['taskId', 'createdAt', 'id'])
@Index(['createdBy', 'createdAt', 'id'])
@Index(['type', 'createdAt', 'id'])
export class ArtifactEntity {
  @PrimaryColumn({ type: 'varchar', length: 128 })
  id!: string;

  /** code, tests or documentation. */
  @Column({ type: 'varchar', length: 32 })
  type!: string;

  /** Where it lives in the project, relative. */
  @Column({ type: 'varchar', length: 1024 })
  path!: string;

  @Column({ type: 'varchar', length: 128 })
  taskId!: string;

  /** The agent (or person) that made it. */
  @Column({ type: 'varchar', length: 128 })
  createdBy!: string;

  @Column({ type: 'text' })
  description!: string;

  @Column({ type: 'varchar', length: 128, nullable: true })
  projectId!: string | null;

  /** The media type of the content; empty while there is none. */
  @Column({ type: 'varchar', length: 255 })
  contentType!: string;

  @Column({ type: 'integer' })
  sizeBytes!: number;

  /** SHA-256 of the content, hex; null while there is none. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  sha256!: string | null;

  @Column()
  createdAt!: Date;

  @Column()
  updatedAt!: Date;
}
