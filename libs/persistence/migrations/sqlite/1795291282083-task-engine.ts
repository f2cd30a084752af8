import type { MigrationInterface, QueryRunner } from 'typeorm';

export class TaskEngine1795291282083 implements MigrationInterface {
  name = 'TaskEngine1795291282083';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "tasks" ("id" varchar(64) PRIMARY KEY NOT NULL, "title" varchar(256) NOT NULL, "description" text NOT NULL, "type" varchar(32) NOT NULL, "priority" varchar(16) NOT NULL, "project" varchar(64) NOT NULL, "created_by" varchar(256) NOT NULL, "assigned_to" varchar(256), "assignee_id" varchar(36), "reviewers" text NOT NULL, "dependencies" text NOT NULL, "artifacts_expected" text NOT NULL, "acceptance_criteria" text NOT NULL, "estimated_complexity" varchar(16) NOT NULL, "budget_limit" float NOT NULL, "deadline" varchar(40), "max_retries" integer NOT NULL, "retry_count" integer NOT NULL, "status" varchar(16) NOT NULL, "status_reason" text, "parent_task_id" varchar(64), "delegation_chain" text NOT NULL, "task_structure" varchar(16), "coordination_topology" varchar(24) NOT NULL, "version" integer NOT NULL, "run_owner" varchar(64), "run_heartbeat_at" datetime, "started_at" datetime, "completed_at" datetime, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_tasks_project" ON "tasks" ("project") ');
    await queryRunner.query('CREATE INDEX "IDX_tasks_assignee_id_status" ON "tasks" ("assignee_id", "status") ');
    await queryRunner.query('CREATE INDEX "IDX_tasks_status_created_at" ON "tasks" ("status", "created_at") ');
    await queryRunner.query(
      'CREATE TABLE "tool_invocations" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "task_id" varchar(64), "tool_name" varchar(64) NOT NULL, "success" boolean NOT NULL, "duration_ms" integer NOT NULL, "error" varchar(512), "timestamp" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_tool_invocations_agent_id_timestamp" ON "tool_invocations" ("agent_id", "timestamp") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_tool_invocations_timestamp" ON "tool_invocations" ("timestamp") ');
    await queryRunner.query('CREATE INDEX "IDX_cost_records_task_id" ON "cost_records" ("task_id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_cost_records_task_id"');
    await queryRunner.query('DROP INDEX "IDX_tool_invocations_timestamp"');
    await queryRunner.query('DROP INDEX "IDX_tool_invocations_agent_id_timestamp"');
    await queryRunner.query('DROP TABLE "tool_invocations"');
    await queryRunner.query('DROP INDEX "IDX_tasks_status_created_at"');
    await queryRunner.query('DROP INDEX "IDX_tasks_assignee_id_status"');
    await queryRunner.query('DROP INDEX "IDX_tasks_project"');
    await queryRunner.query('DROP TABLE "tasks"');
  }
}
