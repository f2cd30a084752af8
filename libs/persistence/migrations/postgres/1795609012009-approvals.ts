import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Approvals1795609012009 implements MigrationInterface {
  name = 'Approvals1795609012009';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "approval_items" ("id" character varying(64) NOT NULL, "action_type" character varying(128) NOT NULL, "title" character varying(256) NOT NULL, "description" text NOT NULL, "requested_by" character varying(256) NOT NULL, "risk_level" character varying(16) NOT NULL, "status" character varying(16) NOT NULL, "task_id" character varying(128), "department" character varying(128), "metadata" text NOT NULL, "decided_by" character varying(256), "decision_reason" text, "on_timeout" character varying(16), "escalation_step" integer NOT NULL, "assigned_role" character varying(64), "version" integer NOT NULL, "created_at" TIMESTAMP NOT NULL, "decided_at" TIMESTAMP, "expires_at" TIMESTAMP, CONSTRAINT "PK_approval_items" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_status_expires_at" ON "approval_items"  ("status", "expires_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_action_type_created_at_id" ON "approval_items"  ("action_type", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_risk_level_created_at_id" ON "approval_items"  ("risk_level", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_status_created_at_id" ON "approval_items"  ("status", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_created_at_id" ON "approval_items"  ("created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "audit_entries" ("seq" integer NOT NULL, "id" character varying(64) NOT NULL, "at" TIMESTAMP NOT NULL, "actor" character varying(256) NOT NULL, "action" character varying(64) NOT NULL, "target" character varying(256), "outcome" character varying(16) NOT NULL, "request_id" character varying(128), "details" text NOT NULL, "prev_hash" character varying(64) NOT NULL, "hash" character varying(64) NOT NULL, CONSTRAINT "PK_audit_entries" PRIMARY KEY ("seq"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_action_at" ON "audit_entries"  ("action", "at") ');
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_actor_at" ON "audit_entries"  ("actor", "at") ');
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_at_seq" ON "audit_entries"  ("at", "seq") ');
    await queryRunner.query(
      'CREATE TABLE "parked_runs" ("approval_id" character varying(64) NOT NULL, "task_id" character varying(64) NOT NULL, "agent_id" character varying(36) NOT NULL, "provider" character varying(64) NOT NULL, "model" character varying(256) NOT NULL, "messages" text NOT NULL, "pending_call" text NOT NULL, "turns" integer NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "has_worktree" boolean NOT NULL, "state" character varying(16) NOT NULL, "approved" boolean, "decision_reason" text, "end_run" boolean, "decided_by" character varying(256), "resumed_by" character varying(64), "created_at" TIMESTAMP NOT NULL, "decided_at" TIMESTAMP, "resumed_at" TIMESTAMP, CONSTRAINT "PK_parked_runs" PRIMARY KEY ("approval_id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_parked_runs_task_id_state" ON "parked_runs"  ("task_id", "state") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_parked_runs_state_decided_at" ON "parked_runs"  ("state", "decided_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_parked_runs_state_decided_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_parked_runs_task_id_state"');
    await queryRunner.query('DROP TABLE "parked_runs"');
    await queryRunner.query('DROP INDEX "public"."IDX_audit_entries_at_seq"');
    await queryRunner.query('DROP INDEX "public"."IDX_audit_entries_actor_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_audit_entries_action_at"');
    await queryRunner.query('DROP TABLE "audit_entries"');
    await queryRunner.query('DROP INDEX "public"."IDX_approval_items_created_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_approval_items_status_created_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_approval_items_risk_level_created_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_approval_items_action_type_created_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_approval_items_status_expires_at"');
    await queryRunner.query('DROP TABLE "approval_items"');
  }
}
