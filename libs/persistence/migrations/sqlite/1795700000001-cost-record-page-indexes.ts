import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Cost record pages read newest first with the id as tie-break: each filter's index ends in (timestamp, id). */
export class CostRecordPageIndexes1795700000001 implements MigrationInterface {
  name = 'CostRecordPageIndexes1795700000001';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_cost_records_task_id"');
    await queryRunner.query('DROP INDEX "IDX_cost_records_agent_id_timestamp"');
    await queryRunner.query('DROP INDEX "IDX_cost_records_timestamp"');
    await queryRunner.query('CREATE INDEX "IDX_cost_records_timestamp_id" ON "cost_records" ("timestamp", "id") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_cost_records_agent_id_timestamp_id" ON "cost_records" ("agent_id", "timestamp", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_cost_records_task_id_timestamp_id" ON "cost_records" ("task_id", "timestamp", "id") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_cost_records_task_id_timestamp_id"');
    await queryRunner.query('DROP INDEX "IDX_cost_records_agent_id_timestamp_id"');
    await queryRunner.query('DROP INDEX "IDX_cost_records_timestamp_id"');
    await queryRunner.query('CREATE INDEX "IDX_cost_records_timestamp" ON "cost_records" ("timestamp") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_cost_records_agent_id_timestamp" ON "cost_records" ("agent_id", "timestamp") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_cost_records_task_id" ON "cost_records" ("task_id") ');
  }
}
