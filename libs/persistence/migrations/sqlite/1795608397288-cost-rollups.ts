import type { MigrationInterface, QueryRunner } from 'typeorm';

export class CostRollups1795608397288 implements MigrationInterface {
  name = 'CostRollups1795608397288';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "cost_rollups" ("grain" varchar(8) NOT NULL, "bucket" datetime NOT NULL, "agent_id" varchar(36) NOT NULL, "task_id" varchar(64) NOT NULL, "cost_usd" float NOT NULL, "input_tokens" bigint NOT NULL, "output_tokens" bigint NOT NULL, "records" integer NOT NULL, PRIMARY KEY ("grain", "bucket", "agent_id", "task_id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cost_rollups_grain_task_id_bucket" ON "cost_rollups" ("grain", "task_id", "bucket") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cost_rollups_grain_agent_id_bucket" ON "cost_rollups" ("grain", "agent_id", "bucket") ',
    );
    // Records written before the rollups existed are counted once, here.
    await queryRunner.query(
      'INSERT INTO "cost_rollups" ("grain", "bucket", "agent_id", "task_id", "cost_usd", "input_tokens", "output_tokens", "records") SELECT \'hour\', strftime(\'%Y-%m-%d %H:00:00.000\', "timestamp"), "agent_id", \'\', SUM("cost_usd"), SUM("input_tokens"), SUM("output_tokens"), COUNT(*) FROM "cost_records" GROUP BY strftime(\'%Y-%m-%d %H:00:00.000\', "timestamp"), "agent_id"',
    );
    await queryRunner.query(
      'INSERT INTO "cost_rollups" ("grain", "bucket", "agent_id", "task_id", "cost_usd", "input_tokens", "output_tokens", "records") SELECT \'day\', strftime(\'%Y-%m-%d 00:00:00.000\', "timestamp"), "agent_id", \'\', SUM("cost_usd"), SUM("input_tokens"), SUM("output_tokens"), COUNT(*) FROM "cost_records" GROUP BY strftime(\'%Y-%m-%d 00:00:00.000\', "timestamp"), "agent_id"',
    );
    await queryRunner.query(
      'INSERT INTO "cost_rollups" ("grain", "bucket", "agent_id", "task_id", "cost_usd", "input_tokens", "output_tokens", "records") SELECT \'task\', strftime(\'%Y-%m-%d 00:00:00.000\', "timestamp"), "agent_id", COALESCE("task_id", \'\'), SUM("cost_usd"), SUM("input_tokens"), SUM("output_tokens"), COUNT(*) FROM "cost_records" GROUP BY strftime(\'%Y-%m-%d 00:00:00.000\', "timestamp"), "agent_id", COALESCE("task_id", \'\')',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_cost_rollups_grain_agent_id_bucket"');
    await queryRunner.query('DROP INDEX "IDX_cost_rollups_grain_task_id_bucket"');
    await queryRunner.query('DROP TABLE "cost_rollups"');
  }
}
