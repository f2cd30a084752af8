import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OffboardingRecords1795760044000 implements MigrationInterface {
  name = 'OffboardingRecords1795760044000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "offboarding_records" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "agent_name" varchar(200) NOT NULL, "department" varchar(128) NOT NULL, "reason" varchar(32) NOT NULL, "details" text NOT NULL, "requested_by" varchar(200) NOT NULL, "step" varchar(32) NOT NULL, "version" integer NOT NULL, "step_log" text NOT NULL, "handover" text NOT NULL, "fired_event_id" varchar(36) NOT NULL, "offboarded_event_id" varchar(36) NOT NULL, "team_message_id" varchar(36) NOT NULL, "team_channel" varchar(128), "memory_archive_id" varchar(64), "org_memories_promoted" integer NOT NULL, "started_at" datetime NOT NULL, "completed_at" datetime, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "IDX_offboarding_records_agent_id" ON "offboarding_records" ("agent_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_offboarding_records_completed_at" ON "offboarding_records" ("completed_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_offboarding_records_completed_at"');
    await queryRunner.query('DROP INDEX "IDX_offboarding_records_agent_id"');
    await queryRunner.query('DROP TABLE "offboarding_records"');
  }
}
