import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CompanyStructure1795284720793 implements MigrationInterface {
  name = 'CompanyStructure1795284720793';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "agent_lifecycle_events" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "agent_name" character varying(200) NOT NULL, "event_type" character varying(32) NOT NULL, "timestamp" TIMESTAMP NOT NULL, "initiated_by" character varying(200) NOT NULL, "details" text NOT NULL DEFAULT \'\', "metadata" text NOT NULL, CONSTRAINT "PK_agent_lifecycle_events" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_agent_lifecycle_events_agent_id_timestamp" ON "agent_lifecycle_events"  ("agent_id", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_agent_lifecycle_events_timestamp" ON "agent_lifecycle_events"  ("timestamp") ',
    );
    await queryRunner.query(
      'CREATE TABLE "agents" ("id" character varying(36) NOT NULL, "name" character varying(200) NOT NULL, "name_key" character varying(200) NOT NULL, "role" character varying(100) NOT NULL, "department" character varying(128) NOT NULL, "level" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "position" integer NOT NULL, "personality_preset" character varying(100), "personality" text NOT NULL, "model_provider" character varying(100), "model_id" character varying(200), "model_tier" character varying(16) NOT NULL, "autonomy_level" character varying(16), "budget_limit_monthly" double precision, "settings" text NOT NULL, "hiring_date" TIMESTAMP NOT NULL, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_agents" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_agents_name_key" ON "agents"  ("name_key") ');
    await queryRunner.query('CREATE INDEX "IDX_agents_position" ON "agents"  ("position") ');
    await queryRunner.query('CREATE INDEX "IDX_agents_department" ON "agents"  ("department") ');
    await queryRunner.query(
      'CREATE TABLE "companies" ("id" character varying(36) NOT NULL, "name" character varying(200) NOT NULL, "description" text NOT NULL DEFAULT \'\', "type" character varying(64) NOT NULL, "template_name" character varying(100), "autonomy_level" character varying(16) NOT NULL, "budget_monthly" double precision NOT NULL, "currency" character varying(3) NOT NULL, "communication_pattern" character varying(32) NOT NULL, "workflow" character varying(32) NOT NULL, "ceremony_strategy" character varying(32), "version" integer NOT NULL DEFAULT \'1\', "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_companies" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "cost_records" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "task_id" character varying(64), "provider" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "cost_usd" double precision NOT NULL, "call_category" character varying(16) NOT NULL, "timestamp" TIMESTAMP NOT NULL, CONSTRAINT "PK_cost_records" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cost_records_agent_id_timestamp" ON "cost_records"  ("agent_id", "timestamp") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_cost_records_timestamp" ON "cost_records"  ("timestamp") ');
    await queryRunner.query(
      'CREATE TABLE "departments" ("id" character varying(36) NOT NULL, "name" character varying(128) NOT NULL, "name_key" character varying(128) NOT NULL, "position" integer NOT NULL, "head" character varying(200), "budget_percent" double precision NOT NULL DEFAULT \'0\', "autonomy_level" character varying(16), "teams" text NOT NULL, "reporting_lines" text NOT NULL, "policies" text NOT NULL, "ceremony_policy" text, "version" integer NOT NULL DEFAULT \'1\', "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_departments" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_departments_name_key" ON "departments"  ("name_key") ');
    await queryRunner.query(
      'CREATE TABLE "personality_presets" ("name" character varying(100) NOT NULL, "personality" text NOT NULL, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_personality_presets" PRIMARY KEY ("name"))',
    );
    await queryRunner.query(
      'CREATE TABLE "projects" ("id" character varying(32) NOT NULL, "name" character varying(200) NOT NULL, "name_key" character varying(200) NOT NULL, "description" text NOT NULL DEFAULT \'\', "team" text NOT NULL, "lead" character varying(128), "task_ids" text NOT NULL, "deadline" character varying(40), "budget" double precision NOT NULL DEFAULT \'0\', "status" character varying(16) NOT NULL, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_projects" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_projects_name_key" ON "projects"  ("name_key") ');
    await queryRunner.query('CREATE INDEX "IDX_projects_status" ON "projects"  ("status") ');
    await queryRunner.query(
      'CREATE TABLE "providers" ("name" character varying(100) NOT NULL, "auth_type" character varying(32) NOT NULL, "base_url" character varying(512), "gateway_provider" character varying(100), "family" character varying(100), "preset" character varying(64), "models" text NOT NULL, "degradation" text NOT NULL, "secrets" text, "secrets_key_id" character varying(64), "tos_accepted_at" TIMESTAMP, "version" integer NOT NULL DEFAULT \'1\', "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_providers" PRIMARY KEY ("name"))',
    );
    await queryRunner.query(
      'CREATE TABLE "task_metrics" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "task_id" character varying(64) NOT NULL, "task_type" character varying(32) NOT NULL, "started_at" TIMESTAMP, "completed_at" TIMESTAMP NOT NULL, "is_success" boolean NOT NULL, "duration_seconds" double precision NOT NULL, "cost_usd" double precision NOT NULL, "turns_used" integer NOT NULL, "tokens_used" integer NOT NULL, "quality_score" double precision, "collaboration_score" double precision, "complexity" character varying(16) NOT NULL, CONSTRAINT "PK_task_metrics" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_task_metrics_completed_at" ON "task_metrics"  ("completed_at") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_task_metrics_agent_id_completed_at" ON "task_metrics"  ("agent_id", "completed_at") ',
    );
    await queryRunner.query('ALTER TABLE "users" ADD "department" character varying(128)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "users" DROP COLUMN "department"');
    await queryRunner.query('DROP INDEX "public"."IDX_task_metrics_agent_id_completed_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_task_metrics_completed_at"');
    await queryRunner.query('DROP TABLE "task_metrics"');
    await queryRunner.query('DROP TABLE "providers"');
    await queryRunner.query('DROP INDEX "public"."IDX_projects_status"');
    await queryRunner.query('DROP INDEX "public"."IDX_projects_name_key"');
    await queryRunner.query('DROP TABLE "projects"');
    await queryRunner.query('DROP TABLE "personality_presets"');
    await queryRunner.query('DROP INDEX "public"."IDX_departments_name_key"');
    await queryRunner.query('DROP TABLE "departments"');
    await queryRunner.query('DROP INDEX "public"."IDX_cost_records_timestamp"');
    await queryRunner.query('DROP INDEX "public"."IDX_cost_records_agent_id_timestamp"');
    await queryRunner.query('DROP TABLE "cost_records"');
    await queryRunner.query('DROP TABLE "companies"');
    await queryRunner.query('DROP INDEX "public"."IDX_agents_department"');
    await queryRunner.query('DROP INDEX "public"."IDX_agents_position"');
    await queryRunner.query('DROP INDEX "public"."IDX_agents_name_key"');
    await queryRunner.query('DROP TABLE "agents"');
    await queryRunner.query('DROP INDEX "public"."IDX_agent_lifecycle_events_timestamp"');
    await queryRunner.query('DROP INDEX "public"."IDX_agent_lifecycle_events_agent_id_timestamp"');
    await queryRunner.query('DROP TABLE "agent_lifecycle_events"');
  }
}
