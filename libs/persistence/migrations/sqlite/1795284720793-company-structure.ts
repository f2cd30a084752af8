import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CompanyStructure1795284720793 implements MigrationInterface {
  name = 'CompanyStructure1795284720793';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "agent_lifecycle_events" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "agent_name" varchar(200) NOT NULL, "event_type" varchar(32) NOT NULL, "timestamp" datetime NOT NULL, "initiated_by" varchar(200) NOT NULL, "details" text NOT NULL DEFAULT (\'\'), "metadata" text NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_agent_lifecycle_events_agent_id_timestamp" ON "agent_lifecycle_events" ("agent_id", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_agent_lifecycle_events_timestamp" ON "agent_lifecycle_events" ("timestamp") ',
    );
    await queryRunner.query(
      'CREATE TABLE "agents" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(200) NOT NULL, "name_key" varchar(200) NOT NULL, "role" varchar(100) NOT NULL, "department" varchar(128) NOT NULL, "level" varchar(16) NOT NULL, "status" varchar(16) NOT NULL, "position" integer NOT NULL, "personality_preset" varchar(100), "personality" text NOT NULL, "model_provider" varchar(100), "model_id" varchar(200), "model_tier" varchar(16) NOT NULL, "autonomy_level" varchar(16), "budget_limit_monthly" float, "settings" text NOT NULL, "hiring_date" datetime NOT NULL, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_agents_name_key" ON "agents" ("name_key") ');
    await queryRunner.query('CREATE INDEX "IDX_agents_position" ON "agents" ("position") ');
    await queryRunner.query('CREATE INDEX "IDX_agents_department" ON "agents" ("department") ');
    await queryRunner.query(
      'CREATE TABLE "companies" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(200) NOT NULL, "description" text NOT NULL DEFAULT (\'\'), "type" varchar(64) NOT NULL, "template_name" varchar(100), "autonomy_level" varchar(16) NOT NULL, "budget_monthly" float NOT NULL, "currency" varchar(3) NOT NULL, "communication_pattern" varchar(32) NOT NULL, "workflow" varchar(32) NOT NULL, "ceremony_strategy" varchar(32), "version" integer NOT NULL DEFAULT (1), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE TABLE "cost_records" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "task_id" varchar(64), "provider" varchar(100) NOT NULL, "model" varchar(200) NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "cost_usd" float NOT NULL, "call_category" varchar(16) NOT NULL, "timestamp" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cost_records_agent_id_timestamp" ON "cost_records" ("agent_id", "timestamp") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_cost_records_timestamp" ON "cost_records" ("timestamp") ');
    await queryRunner.query(
      'CREATE TABLE "departments" ("id" varchar(36) PRIMARY KEY NOT NULL, "name" varchar(128) NOT NULL, "name_key" varchar(128) NOT NULL, "position" integer NOT NULL, "head" varchar(200), "budget_percent" float NOT NULL DEFAULT (0), "autonomy_level" varchar(16), "teams" text NOT NULL, "reporting_lines" text NOT NULL, "policies" text NOT NULL, "ceremony_policy" text, "version" integer NOT NULL DEFAULT (1), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_departments_name_key" ON "departments" ("name_key") ');
    await queryRunner.query(
      'CREATE TABLE "personality_presets" ("name" varchar(100) PRIMARY KEY NOT NULL, "personality" text NOT NULL, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE TABLE "projects" ("id" varchar(32) PRIMARY KEY NOT NULL, "name" varchar(200) NOT NULL, "name_key" varchar(200) NOT NULL, "description" text NOT NULL DEFAULT (\'\'), "team" text NOT NULL, "lead" varchar(128), "task_ids" text NOT NULL, "deadline" varchar(40), "budget" float NOT NULL DEFAULT (0), "status" varchar(16) NOT NULL, "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_projects_name_key" ON "projects" ("name_key") ');
    await queryRunner.query('CREATE INDEX "IDX_projects_status" ON "projects" ("status") ');
    await queryRunner.query(
      'CREATE TABLE "providers" ("name" varchar(100) PRIMARY KEY NOT NULL, "auth_type" varchar(32) NOT NULL, "base_url" varchar(512), "gateway_provider" varchar(100), "family" varchar(100), "preset" varchar(64), "models" text NOT NULL, "degradation" text NOT NULL, "secrets" text, "secrets_key_id" varchar(64), "tos_accepted_at" datetime, "version" integer NOT NULL DEFAULT (1), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE TABLE "task_metrics" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "task_id" varchar(64) NOT NULL, "task_type" varchar(32) NOT NULL, "started_at" datetime, "completed_at" datetime NOT NULL, "is_success" boolean NOT NULL, "duration_seconds" float NOT NULL, "cost_usd" float NOT NULL, "turns_used" integer NOT NULL, "tokens_used" integer NOT NULL, "quality_score" float, "collaboration_score" float, "complexity" varchar(16) NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_task_metrics_completed_at" ON "task_metrics" ("completed_at") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_task_metrics_agent_id_completed_at" ON "task_metrics" ("agent_id", "completed_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "temporary_users" ("id" varchar(36) PRIMARY KEY NOT NULL, "username" varchar(128) NOT NULL, "password_hash" text NOT NULL, "role" varchar(32) NOT NULL, "must_change_password" boolean NOT NULL DEFAULT (0), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL, "department" varchar(128), CONSTRAINT "UQ_users_username" UNIQUE ("username"))',
    );
    await queryRunner.query(
      'INSERT INTO "temporary_users"("id", "username", "password_hash", "role", "must_change_password", "created_at", "updated_at") SELECT "id", "username", "password_hash", "role", "must_change_password", "created_at", "updated_at" FROM "users"',
    );
    await queryRunner.query('DROP TABLE "users"');
    await queryRunner.query('ALTER TABLE "temporary_users" RENAME TO "users"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" RENAME TO "temporary_users"');
    await queryRunner.query(
      'CREATE TABLE "users" ("id" varchar(36) PRIMARY KEY NOT NULL, "username" varchar(128) NOT NULL, "password_hash" text NOT NULL, "role" varchar(32) NOT NULL, "must_change_password" boolean NOT NULL DEFAULT (0), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL, CONSTRAINT "UQ_users_username" UNIQUE ("username"))',
    );
    await queryRunner.query(
      'INSERT INTO "users"("id", "username", "password_hash", "role", "must_change_password", "created_at", "updated_at") SELECT "id", "username", "password_hash", "role", "must_change_password", "created_at", "updated_at" FROM "temporary_users"',
    );
    await queryRunner.query('DROP TABLE "temporary_users"');
    await queryRunner.query('DROP INDEX "IDX_task_metrics_agent_id_completed_at"');
    await queryRunner.query('DROP INDEX "IDX_task_metrics_completed_at"');
    await queryRunner.query('DROP TABLE "task_metrics"');
    await queryRunner.query('DROP TABLE "providers"');
    await queryRunner.query('DROP INDEX "IDX_projects_status"');
    await queryRunner.query('DROP INDEX "IDX_projects_name_key"');
    await queryRunner.query('DROP TABLE "projects"');
    await queryRunner.query('DROP TABLE "personality_presets"');
    await queryRunner.query('DROP INDEX "IDX_departments_name_key"');
    await queryRunner.query('DROP TABLE "departments"');
    await queryRunner.query('DROP INDEX "IDX_cost_records_timestamp"');
    await queryRunner.query('DROP INDEX "IDX_cost_records_agent_id_timestamp"');
    await queryRunner.query('DROP TABLE "cost_records"');
    await queryRunner.query('DROP TABLE "companies"');
    await queryRunner.query('DROP INDEX "IDX_agents_department"');
    await queryRunner.query('DROP INDEX "IDX_agents_position"');
    await queryRunner.query('DROP INDEX "IDX_agents_name_key"');
    await queryRunner.query('DROP TABLE "agents"');
    await queryRunner.query('DROP INDEX "IDX_agent_lifecycle_events_timestamp"');
    await queryRunner.query('DROP INDEX "IDX_agent_lifecycle_events_agent_id_timestamp"');
    await queryRunner.query('DROP TABLE "agent_lifecycle_events"');
  }
}
