import type { MigrationInterface, QueryRunner } from 'typeorm';

export class LevelChanges1795820000001 implements MigrationInterface {
  name = 'LevelChanges1795820000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "level_changes" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "agent_name" varchar(200) NOT NULL, "direction" varchar(16) NOT NULL, "old_level" varchar(16) NOT NULL, "new_level" varchar(16) NOT NULL, "status" varchar(16) NOT NULL, "pending_key" varchar(36), "approval_id" varchar(36), "reason" text NOT NULL, "requested_by" varchar(200) NOT NULL, "decided_by" varchar(200), "event_id" varchar(36) NOT NULL, "created_at" datetime NOT NULL, "applied_at" datetime, "decided_at" datetime)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_level_changes_pending_key" ON "level_changes" ("pending_key") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_level_changes_agent_id_applied_at" ON "level_changes" ("agent_id", "applied_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_level_changes_agent_id_applied_at"');
    await queryRunner.query('DROP INDEX "IDX_level_changes_pending_key"');
    await queryRunner.query('DROP TABLE "level_changes"');
  }
}
