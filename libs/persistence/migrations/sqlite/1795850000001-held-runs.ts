import type { MigrationInterface, QueryRunner } from 'typeorm';

export class HeldRuns1795850000001 implements MigrationInterface {
  name = 'HeldRuns1795850000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "held_runs" ("id" varchar(36) PRIMARY KEY NOT NULL, "task_id" varchar(64) NOT NULL, "agent_id" varchar(36) NOT NULL, "provider" varchar(64) NOT NULL, "model" varchar(256) NOT NULL, "estimate_usd" float NOT NULL, "reason" varchar(32) NOT NULL, "limit_name" varchar(32), "code" integer NOT NULL, "detail" text NOT NULL, "state" varchar(16) NOT NULL, "held_at" datetime NOT NULL, "released_at" datetime)',
    );
    await queryRunner.query('CREATE INDEX "IDX_held_runs_state_held_at" ON "held_runs" ("state", "held_at") ');
    await queryRunner.query('CREATE INDEX "IDX_held_runs_task_id_state" ON "held_runs" ("task_id", "state") ');
    await queryRunner.query('CREATE INDEX "IDX_held_runs_agent_id_held_at" ON "held_runs" ("agent_id", "held_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_held_runs_agent_id_held_at"');
    await queryRunner.query('DROP INDEX "IDX_held_runs_task_id_state"');
    await queryRunner.query('DROP INDEX "IDX_held_runs_state_held_at"');
    await queryRunner.query('DROP TABLE "held_runs"');
  }
}
