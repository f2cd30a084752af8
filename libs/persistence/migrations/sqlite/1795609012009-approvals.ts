import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Approvals1795609012009 implements MigrationInterface {
  name = 'Approvals1795609012009';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "approval_items" ("id" varchar(64) PRIMARY KEY NOT NULL, "action_type" varchar(128) NOT NULL, "title" varchar(256) NOT NULL, "description" text NOT NULL, "requested_by" varchar(256) NOT NULL, "risk_level" varchar(16) NOT NULL, "status" varchar(16) NOT NULL, "task_id" varchar(128), "department" varchar(128), "metadata" text NOT NULL, "decided_by" varchar(256), "decision_reason" text, "on_timeout" varchar(16), "escalation_step" integer NOT NULL, "assigned_role" varchar(64), "version" integer NOT NULL, "created_at" datetime NOT NULL, "decided_at" datetime, "expires_at" datetime)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_status_expires_at" ON "approval_items" ("status", "expires_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_action_type_created_at_id" ON "approval_items" ("action_type", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_risk_level_created_at_id" ON "approval_items" ("risk_level", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_status_created_at_id" ON "approval_items" ("status", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_approval_items_created_at_id" ON "approval_items" ("created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "audit_entries" ("seq" integer PRIMARY KEY NOT NULL, "id" varchar(64) NOT NULL, "at" datetime NOT NULL, "actor" varchar(256) NOT NULL, "action" varchar(64) NOT NULL, "target" varchar(256), "outcome" varchar(16) NOT NULL, "request_id" varchar(128), "details" text NOT NULL, "prev_hash" varchar(64) NOT NULL, "hash" varchar(64) NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_action_at" ON "audit_entries" ("action", "at") ');
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_actor_at" ON "audit_entries" ("actor", "at") ');
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_at_seq" ON "audit_entries" ("at", "seq") ');
    await queryRunner.query(
      'CREATE TABLE "parked_runs" ("approval_id" varchar(64) PRIMARY KEY NOT NULL, "task_id" varchar(64) NOT NULL, "agent_id" varchar(36) NOT NULL, "provider" varchar(64) NOT NULL, "model" varchar(256) NOT NULL, "messages" text NOT NULL, "pending_call" text NOT NULL, "turns" integer NOT NULL, "input_tokens" integer NOT NULL, "output_tokens" integer NOT NULL, "has_worktree" boolean NOT NULL, "state" varchar(16) NOT NULL, "approved" boolean, "decision_reason" text, "end_run" boolean, "decided_by" varchar(256), "resumed_by" varchar(64), "created_at" datetime NOT NULL, "decided_at" datetime, "resumed_at" datetime)',
    );
    await queryRunner.query('CREATE INDEX "IDX_parked_runs_task_id_state" ON "parked_runs" ("task_id", "state") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_parked_runs_state_decided_at" ON "parked_runs" ("state", "decided_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_parked_runs_state_decided_at"');
    await queryRunner.query('DROP INDEX "IDX_parked_runs_task_id_state"');
    await queryRunner.query('DROP TABLE "parked_runs"');
    await queryRunner.query('DROP INDEX "IDX_audit_entries_at_seq"');
    await queryRunner.query('DROP INDEX "IDX_audit_entries_actor_at"');
    await queryRunner.query('DROP INDEX "IDX_audit_entries_action_at"');
    await queryRunner.query('DROP TABLE "audit_entries"');
    await queryRunner.query('DROP INDEX "IDX_approval_items_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_approval_items_status_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_approval_items_risk_level_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_approval_items_action_type_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_approval_items_status_expires_at"');
    await queryRunner.query('DROP TABLE "approval_items"');
  }
}
