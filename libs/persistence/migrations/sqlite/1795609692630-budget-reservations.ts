import type { MigrationInterface, QueryRunner } from 'typeorm';

export class BudgetReservations1795609692630 implements MigrationInterface {
  name = 'BudgetReservations1795609692630';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "budget_alert_levels" ("scope" varchar(160) PRIMARY KEY NOT NULL, "rank" integer NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE TABLE "budget_reservations" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "task_id" varchar(64), "provider" varchar(100) NOT NULL, "model" varchar(200) NOT NULL, "estimate_usd" float NOT NULL, "state" varchar(16) NOT NULL, "owner" varchar(80) NOT NULL, "created_at" datetime NOT NULL, "expires_at" datetime NOT NULL, "cost_record_id" varchar(36))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_budget_reservations_state_task_id" ON "budget_reservations" ("state", "task_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_budget_reservations_state_agent_id" ON "budget_reservations" ("state", "agent_id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_budget_reservations_state_expires_at" ON "budget_reservations" ("state", "expires_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_budget_reservations_state_expires_at"');
    await queryRunner.query('DROP INDEX "IDX_budget_reservations_state_agent_id"');
    await queryRunner.query('DROP INDEX "IDX_budget_reservations_state_task_id"');
    await queryRunner.query('DROP TABLE "budget_reservations"');
    await queryRunner.query('DROP TABLE "budget_alert_levels"');
  }
}
