import type { MigrationInterface, QueryRunner } from 'typeorm';

export class DelegationRecords1795620365157 implements MigrationInterface {
  name = 'DelegationRecords1795620365157';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "delegation_records" ("id" varchar(36) PRIMARY KEY NOT NULL, "delegator_id" varchar(36) NOT NULL, "delegator_name" varchar(200) NOT NULL, "delegatee_id" varchar(36) NOT NULL, "delegatee_name" varchar(200) NOT NULL, "original_task_id" varchar(64) NOT NULL, "delegated_task_id" varchar(64) NOT NULL, "title" varchar(256) NOT NULL, "fingerprint" varchar(64) NOT NULL, "refinement" text NOT NULL, "timestamp" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_delegation_records_timestamp" ON "delegation_records" ("timestamp") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_delegation_records_delegatee_id_timestamp" ON "delegation_records" ("delegatee_id", "timestamp") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_delegation_records_delegator_id_delegatee_id_timestamp" ON "delegation_records" ("delegator_id", "delegatee_id", "timestamp") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_delegation_records_delegator_id_delegatee_id_timestamp"');
    await queryRunner.query('DROP INDEX "IDX_delegation_records_delegatee_id_timestamp"');
    await queryRunner.query('DROP INDEX "IDX_delegation_records_timestamp"');
    await queryRunner.query('DROP TABLE "delegation_records"');
  }
}
