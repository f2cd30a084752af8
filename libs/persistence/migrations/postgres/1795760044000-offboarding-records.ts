import type { MigrationInterface, QueryRunner } from 'typeorm';

export class OffboardingRecords1795760044000 implements MigrationInterface {
  name = 'OffboardingRecords1795760044000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "offboarding_records" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "agent_name" character varying(200) NOT NULL, "department" character varying(128) NOT NULL, "reason" character varying(32) NOT NULL, "details" text NOT NULL, "requested_by" character varying(200) NOT NULL, "step" character varying(32) NOT NULL, "version" integer NOT NULL, "step_log" text NOT NULL, "handover" text NOT NULL, "fired_event_id" character varying(36) NOT NULL, "offboarded_event_id" character varying(36) NOT NULL, "team_message_id" character varying(36) NOT NULL, "team_channel" character varying(128), "memory_archive_id" character varying(64), "org_memories_promoted" integer NOT NULL, "started_at" TIMESTAMP NOT NULL, "completed_at" TIMESTAMP, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_offboarding_records" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE UNIQUE INDEX "IDX_offboarding_records_agent_id" ON "offboarding_records"  ("agent_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_offboarding_records_completed_at" ON "offboarding_records"  ("completed_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_offboarding_records_completed_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_offboarding_records_agent_id"');
    await queryRunner.query('DROP TABLE "offboarding_records"');
  }
}
