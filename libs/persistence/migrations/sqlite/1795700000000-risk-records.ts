import type { MigrationInterface, QueryRunner } from 'typeorm';

export class RiskRecords1795700000000 implements MigrationInterface {
  name = 'RiskRecords1795700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "risk_records" ("id" varchar(36) PRIMARY KEY NOT NULL, "agent_id" varchar(36) NOT NULL, "task_id" varchar(64) NOT NULL, "tool_name" varchar(64) NOT NULL, "action_type" varchar(128) NOT NULL, "risk_level" varchar(16) NOT NULL, "risk_units" float NOT NULL, "created_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_risk_records_created_at" ON "risk_records" ("created_at") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_risk_records_agent_id_created_at" ON "risk_records" ("agent_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_risk_records_task_id_created_at" ON "risk_records" ("task_id", "created_at") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_risk_records_task_id_created_at"');
    await queryRunner.query('DROP INDEX "IDX_risk_records_agent_id_created_at"');
    await queryRunner.query('DROP INDEX "IDX_risk_records_created_at"');
    await queryRunner.query('DROP TABLE "risk_records"');
  }
}
