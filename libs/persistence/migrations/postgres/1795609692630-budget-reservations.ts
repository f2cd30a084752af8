import type { MigrationInterface, QueryRunner } from 'typeorm';

export class BudgetReservations1795609692630 implements MigrationInterface {
  name = 'BudgetReservations1795609692630';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "budget_alert_levels" ("scope" character varying(160) NOT NULL, "rank" integer NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_budget_alert_levels" PRIMARY KEY ("scope"))',
    );
    await queryRunner.query(
      'CREATE TABLE "budget_reservations" ("id" character varying(36) NOT NULL, "agent_id" character varying(36) NOT NULL, "task_id" character varying(64), "provider" character varying(100) NOT NULL, "model" character varying(200) NOT NULL, "estimate_usd" double precision NOT NULL, "state" character varying(16) NOT NULL, "owner" character varying(80) NOT NULL, "created_at" TIMESTAMP NOT NULL, "expires_at" TIMESTAMP NOT NULL, "cost_record_id" character varying(36), CONSTRAINT "PK_budget_reservations" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_budget_reservations_state_task_id" ON "budget_reservations"  ("state", "task_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_budget_reservations_state_agent_id" ON "budget_reservations"  ("state", "agent_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_budget_reservations_state_expires_at" ON "budget_reservations"  ("state", "expires_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_budget_reservations_state_expires_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_budget_reservations_state_agent_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_budget_reservations_state_task_id"');
    await queryRunner.query('DROP TABLE "budget_reservations"');
    await queryRunner.query('DROP TABLE "budget_alert_levels"');
  }
}
