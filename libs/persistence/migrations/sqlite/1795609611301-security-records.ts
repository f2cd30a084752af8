import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SecurityRecords1795609611301 implements MigrationInterface {
  name = 'SecurityRecords1795609611301';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "autonomy_downgrades" ("agent_id" varchar(36) PRIMARY KEY NOT NULL, "original_level" varchar(16) NOT NULL, "current_level" varchar(16) NOT NULL, "reason" varchar(32) NOT NULL, "detail" varchar(1024) NOT NULL, "downgraded_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE TABLE "security_records" ("id" varchar(36) PRIMARY KEY NOT NULL, "kind" varchar(32) NOT NULL, "agent_id" varchar(36), "task_id" varchar(64), "tool_name" varchar(64), "action_type" varchar(64), "verdict" varchar(16) NOT NULL, "enforced" varchar(16) NOT NULL, "risk_level" varchar(16) NOT NULL, "reason" varchar(1024) NOT NULL, "mode" varchar(16) NOT NULL, "finding" varchar(128), "error_code" integer, "actor" varchar(128) NOT NULL, "created_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_verdict_created_at" ON "security_records" ("verdict", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_task_id_created_at" ON "security_records" ("task_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_agent_id_created_at" ON "security_records" ("agent_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_created_at_id" ON "security_records" ("created_at", "id") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_security_records_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_security_records_agent_id_created_at"');
    await queryRunner.query('DROP INDEX "IDX_security_records_task_id_created_at"');
    await queryRunner.query('DROP INDEX "IDX_security_records_verdict_created_at"');
    await queryRunner.query('DROP TABLE "security_records"');
    await queryRunner.query('DROP TABLE "autonomy_downgrades"');
  }
}
