import type { MigrationInterface, QueryRunner } from 'typeorm';

export class HiringAndOnboarding1795810000001 implements MigrationInterface {
  name = 'HiringAndOnboarding1795810000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "agent_onboardings" ("agent_id" character varying(36) NOT NULL, "agent_name" character varying(200) NOT NULL, "hiring_request_id" character varying(36), "steps" text NOT NULL, "onboarded_event_id" character varying(36) NOT NULL, "version" integer NOT NULL, "started_at" TIMESTAMP NOT NULL, "completed_at" TIMESTAMP, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_agent_onboardings" PRIMARY KEY ("agent_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_agent_onboardings_completed_at" ON "agent_onboardings"  ("completed_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "hiring_requests" ("id" character varying(36) NOT NULL, "requested_by" character varying(256) NOT NULL, "department" character varying(128) NOT NULL, "role" character varying(100) NOT NULL, "level" character varying(16) NOT NULL, "required_skills" text NOT NULL, "reason" text NOT NULL, "budget_limit_monthly" double precision, "template_name" character varying(64), "status" character varying(16) NOT NULL, "candidates" text NOT NULL, "selected_candidate_id" character varying(36), "approval_id" character varying(36), "decided_by" character varying(256), "decision_reason" text, "agent_id" character varying(36), "version" integer NOT NULL, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_hiring_requests" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_hiring_requests_approval_id" ON "hiring_requests"  ("approval_id") ');
    await queryRunner.query('CREATE INDEX "IDX_hiring_requests_created_at" ON "hiring_requests"  ("created_at") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_hiring_requests_status_created_at" ON "hiring_requests"  ("status", "created_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_hiring_requests_status_created_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_hiring_requests_created_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_hiring_requests_approval_id"');
    await queryRunner.query('DROP TABLE "hiring_requests"');
    await queryRunner.query('DROP INDEX "public"."IDX_agent_onboardings_completed_at"');
    await queryRunner.query('DROP TABLE "agent_onboardings"');
  }
}
