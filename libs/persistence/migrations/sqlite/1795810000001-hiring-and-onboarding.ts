import type { MigrationInterface, QueryRunner } from 'typeorm';

export class HiringAndOnboarding1795810000001 implements MigrationInterface {
  name = 'HiringAndOnboarding1795810000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "agent_onboardings" ("agent_id" varchar(36) PRIMARY KEY NOT NULL, "agent_name" varchar(200) NOT NULL, "hiring_request_id" varchar(36), "steps" text NOT NULL, "onboarded_event_id" varchar(36) NOT NULL, "version" integer NOT NULL, "started_at" datetime NOT NULL, "completed_at" datetime, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_agent_onboardings_completed_at" ON "agent_onboardings" ("completed_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "hiring_requests" ("id" varchar(36) PRIMARY KEY NOT NULL, "requested_by" varchar(256) NOT NULL, "department" varchar(128) NOT NULL, "role" varchar(100) NOT NULL, "level" varchar(16) NOT NULL, "required_skills" text NOT NULL, "reason" text NOT NULL, "budget_limit_monthly" float, "template_name" varchar(64), "status" varchar(16) NOT NULL, "candidates" text NOT NULL, "selected_candidate_id" varchar(36), "approval_id" varchar(36), "decided_by" varchar(256), "decision_reason" text, "agent_id" varchar(36), "version" integer NOT NULL, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_hiring_requests_approval_id" ON "hiring_requests" ("approval_id") ');
    await queryRunner.query('CREATE INDEX "IDX_hiring_requests_created_at" ON "hiring_requests" ("created_at") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_hiring_requests_status_created_at" ON "hiring_requests" ("status", "created_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_hiring_requests_status_created_at"');
    await queryRunner.query('DROP INDEX "IDX_hiring_requests_created_at"');
    await queryRunner.query('DROP INDEX "IDX_hiring_requests_approval_id"');
    await queryRunner.query('DROP TABLE "hiring_requests"');
    await queryRunner.query('DROP INDEX "IDX_agent_onboardings_completed_at"');
    await queryRunner.query('DROP TABLE "agent_onboardings"');
  }
}
