import type { MigrationInterface, QueryRunner } from 'typeorm';

export class HeldRuns1795850000001 implements MigrationInterface {
  name = 'HeldRuns1795850000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "held_runs" ("id" character varying(36) NOT NULL, "task_id" character varying(64) NOT NULL, "agent_id" character varying(36) NOT NULL, "provider" character varying(64) NOT NULL, "model" character varying(256) NOT NULL, "estimate_usd" double precision NOT NULL, "reason" character varying(32) NOT NULL, "limit_name" character varying(32), "code" integer NOT NULL, "detail" text NOT NULL, "state" character varying(16) NOT NULL, "held_at" TIMESTAMP NOT NULL, "released_at" TIMESTAMP, CONSTRAINT "PK_held_runs" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_held_runs_state_held_at" ON "held_runs"  ("state", "held_at") ');
    await queryRunner.query('CREATE INDEX "IDX_held_runs_task_id_state" ON "held_runs"  ("task_id", "state") ');
    await queryRunner.query('CREATE INDEX "IDX_held_runs_agent_id_held_at" ON "held_runs"  ("agent_id", "held_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_held_runs_agent_id_held_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_held_runs_task_id_state"');
    await queryRunner.query('DROP INDEX "public"."IDX_held_runs_state_held_at"');
    await queryRunner.query('DROP TABLE "held_runs"');
  }
}
