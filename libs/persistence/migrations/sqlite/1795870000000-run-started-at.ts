import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a task's current run claimed it (`run_started_at`), and the tool invocations of a task in time
 * order: a run's calls to tool servers are counted from what it recorded, on whichever replica it runs.
 */
export class RunStartedAt1795870000000 implements MigrationInterface {
  name = 'RunStartedAt1795870000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "tasks" ADD COLUMN "run_started_at" datetime');
    await queryRunner.query(
      'CREATE INDEX "IDX_tool_invocations_task_id_timestamp" ON "tool_invocations" ("task_id", "timestamp") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_tool_invocations_task_id_timestamp"');
    await queryRunner.query('ALTER TABLE "tasks" DROP COLUMN "run_started_at"');
  }
}
