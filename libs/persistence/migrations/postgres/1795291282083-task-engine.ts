import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TaskEngine1795291282083 implements MigrationInterface {
  name = 'TaskEngine1795291282083';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "tasks" ("id" character varying(64) NOT NULL, "title" character varying(256) NOT NULL, "description" text NOT NULL, "type" character varying(32) NOT NULL, "priority" character varying(16) NOT NULL, "project" character varying(64) NOT NULL, "created_by" character varying(256) NOT NULL, "assigned_to" character varying(256), "assignee_id" character varying(36), "reviewers" text NOT NULL, "dependencies" text NOT NULL, "artifacts_expected" text NOT NULL, "acceptance_criteria" text NOT NULL, "estimated_complexity" character varying(16) NOT NULL, "budget_limit" double precision NOT NULL, "deadline" character varying(40), "max_retries" integer NOT NULL, "retry_count" integer NOT NULL, "status" character varying(16) NOT NULL, "status_reason" text, "parent_task_id" character varying(64), "delegation_chain" text NOT NULL, "task_structure" character varying(16), "coordination_topology" character varying(24) NOT NULL, "version" integer NOT NULL, "run_owner" character varying(64), "run_heartbeat_at" TIMESTAMP, "started_at" TIMESTAMP, "completed_at" TIMESTAMP, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_tasks" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_tasks_project" ON "tasks"  ("project") ');
    await queryRunner.query('CREATE INDEX "IDX_tasks_assignee_id_status" ON "tasks"  ("assignee_id", "status") ');
    await queryRunner.query('CREATE INDEX "IDX_tasks_status_created_at" ON "tasks"  ("status", "created_at") ');
    await queryRunner.query(
      'CREATE TABLE "tool_invocations" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "task_id" character varying(64), "tool_name" character varying(64) NOT NULL, "success" boolean NOT NULL, "duration_ms" integer NOT NULL, "error" character varying(512), "timestamp" TIMESTAMP NOT NULL, CONSTRAINT "PK_tool_invocations" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_tool_invocations_agent_id_timestamp" ON "tool_invocations"  ("agent_id", "timestamp") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_tool_invocations_timestamp" ON "tool_invocations"  ("timestamp") ');
    await queryRunner.query('CREATE INDEX "IDX_cost_records_task_id" ON "cost_records"  ("task_id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_cost_records_task_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_tool_invocations_timestamp"');
    await queryRunner.query('DROP INDEX "public"."IDX_tool_invocations_agent_id_timestamp"');
    await queryRunner.query('DROP TABLE "tool_invocations"');
    await queryRunner.query('DROP INDEX "public"."IDX_tasks_status_created_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_tasks_assignee_id_status"');
    await queryRunner.query('DROP INDEX "public"."IDX_tasks_project"');
    await queryRunner.query('DROP TABLE "tasks"');
  }
}
