import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentMemory1795830000000 implements MigrationInterface {
  name = 'AgentMemory1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "memory_entries" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "category" character varying(16) NOT NULL, "level" character varying(16) NOT NULL, "project" character varying(128), "task_id" character varying(64), "content" text NOT NULL, "metadata" text NOT NULL, "embedder" character varying(320) NOT NULL, "archive_id" character varying(64), "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP, "expires_at" TIMESTAMP, "embedding" bytea NOT NULL, CONSTRAINT "PK_memory_entries" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_memory_entries_agent_id_created_at_id" ON "memory_entries"  ("agent_id", "created_at", "id") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_memory_entries_expires_at" ON "memory_entries"  ("expires_at") ');
    await queryRunner.query(
      'CREATE TABLE "org_facts" ("id" character varying(36) NOT NULL, "category" character varying(16) NOT NULL, "content" text NOT NULL, "department" character varying(128), "author" character varying(200) NOT NULL, "embedder" character varying(320) NOT NULL, "created_at" TIMESTAMP NOT NULL, "embedding" bytea NOT NULL, CONSTRAINT "PK_org_facts" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_org_facts_created_at_id" ON "org_facts"  ("created_at", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_org_facts_created_at_id"');
    await queryRunner.query('DROP TABLE "org_facts"');
    await queryRunner.query('DROP INDEX "public"."IDX_memory_entries_expires_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_memory_entries_agent_id_created_at_id"');
    await queryRunner.query('DROP TABLE "memory_entries"');
  }
}
