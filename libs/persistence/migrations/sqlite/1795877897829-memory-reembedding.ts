import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MemoryReembedding1795877897829 implements MigrationInterface {
  name = 'MemoryReembedding1795877897829';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "memory_pending_vectors" ("kind" varchar(8) NOT NULL, "id" varchar(36) NOT NULL, "embedder" varchar(320) NOT NULL, "embedding" blob NOT NULL, PRIMARY KEY ("kind", "id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "memory_embedder_state" ("id" varchar(16) PRIMARY KEY NOT NULL, "provider" varchar(200) NOT NULL, "model" varchar(200) NOT NULL, "dims" integer, "target_provider" varchar(200), "target_model" varchar(200), "target_dims" integer, "target_marker" varchar(320), "done" integer NOT NULL DEFAULT (0), "total" integer NOT NULL DEFAULT (0), "started_at" datetime, "updated_at" datetime NOT NULL)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "memory_embedder_state"');
    await queryRunner.query('DROP TABLE "memory_pending_vectors"');
  }
}
