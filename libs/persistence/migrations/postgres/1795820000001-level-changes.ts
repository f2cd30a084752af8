import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LevelChanges1795820000001 implements MigrationInterface {
  name = 'LevelChanges1795820000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "level_changes" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "agent_name" character varying(200) NOT NULL, "direction" character varying(16) NOT NULL, "old_level" character varying(16) NOT NULL, "new_level" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "pending_key" character varying(36), "approval_id" character varying(36), "reason" text NOT NULL, "requested_by" character varying(200) NOT NULL, "decided_by" character varying(200), "event_id" character varying(36) NOT NULL, "created_at" TIMESTAMP NOT NULL, "applied_at" TIMESTAMP, "decided_at" TIMESTAMP, CONSTRAINT "PK_level_changes" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_level_changes_pending_key" ON "level_changes"  ("pending_key") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_level_changes_agent_id_applied_at" ON "level_changes"  ("agent_id", "applied_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_level_changes_agent_id_applied_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_level_changes_pending_key"');
    await queryRunner.query('DROP TABLE "level_changes"');
  }
}
