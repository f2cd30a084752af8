import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AgentMemory1795830000000 implements MigrationInterface {
  name = 'AgentMemory1795830000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "memory_entries" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "category" varchar(16) NOT NULL, "level" varchar(16) NOT NULL, "project" varchar(128), "task_id" varchar(64), "content" text NOT NULL, "metadata" text NOT NULL, "embedder" varchar(320) NOT NULL, "archive_id" varchar(64), "created_at" datetime NOT NULL, "updated_at" datetime, "expires_at" datetime, "embedding" blob NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_memory_entries_agent_id_created_at_id" ON "memory_entries" ("agent_id", "created_at", "id") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_memory_entries_expires_at" ON "memory_entries" ("expires_at") ');
    await queryRunner.query(
      'CREATE TABLE "org_facts" ("id" varchar(36) PRIMARY KEY NOT NULL, "category" varchar(16) NOT NULL, "content" text NOT NULL, "department" varchar(128), "author" varchar(200) NOT NULL, "embedder" varchar(320) NOT NULL, "created_at" datetime NOT NULL, "embedding" blob NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_org_facts_created_at_id" ON "org_facts" ("created_at", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_org_facts_created_at_id"');
    await queryRunner.query('DROP TABLE "org_facts"');
    await queryRunner.query('DROP INDEX "IDX_memory_entries_expires_at"');
    await queryRunner.query('DROP INDEX "IDX_memory_entries_agent_id_created_at_id"');
    await queryRunner.query('DROP TABLE "memory_entries"');
  }
}
