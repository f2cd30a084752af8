import type { MigrationInterface, QueryRunner } from 'typeorm';

export class MemoryReembedding1795877897829 implements MigrationInterface {
  name = 'MemoryReembedding1795877897829';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "memory_pending_vectors" ("kind" character varying(8) NOT NULL, "id" character varying(36) NOT NULL, "embedder" character varying(320) NOT NULL, "embedding" bytea NOT NULL, CONSTRAINT "PK_memory_pending_vectors" PRIMARY KEY ("kind", "id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "memory_embedder_state" ("id" character varying(16) NOT NULL, "provider" character varying(200) NOT NULL, "model" character varying(200) NOT NULL, "dims" integer, "target_provider" character varying(200), "target_model" character varying(200), "target_dims" integer, "target_marker" character varying(320), "done" integer NOT NULL DEFAULT \'0\', "total" integer NOT NULL DEFAULT \'0\', "started_at" TIMESTAMP, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_memory_embedder_state" PRIMARY KEY ("id"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "memory_embedder_state"');
    await queryRunner.query('DROP TABLE "memory_pending_vectors"');
  }
}
