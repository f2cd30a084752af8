import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SecurityRecords1795609611301 implements MigrationInterface {
  name = 'SecurityRecords1795609611301';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "autonomy_downgrades" ("agent_id" character varying(36) NOT NULL, "original_level" character varying(16) NOT NULL, "current_level" character varying(16) NOT NULL, "reason" character varying(32) NOT NULL, "detail" character varying(1024) NOT NULL, "downgraded_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_autonomy_downgrades" PRIMARY KEY ("agent_id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "security_records" ("id" character varying(36) NOT NULL, "kind" character varying(32) NOT NULL, "agent_id" character varying(36), "task_id" character varying(64), "tool_name" character varying(64), "action_type" character varying(64), "verdict" character varying(16) NOT NULL, "enforced" character varying(16) NOT NULL, "risk_level" character varying(16) NOT NULL, "reason" character varying(1024) NOT NULL, "mode" character varying(16) NOT NULL, "finding" character varying(128), "error_code" integer, "actor" character varying(128) NOT NULL, "created_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_security_records" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_verdict_created_at" ON "security_records"  ("verdict", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_task_id_created_at" ON "security_records"  ("task_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_agent_id_created_at" ON "security_records"  ("agent_id", "created_at") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_created_at_id" ON "security_records"  ("created_at", "id") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_security_records_created_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_security_records_agent_id_created_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_security_records_task_id_created_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_security_records_verdict_created_at"');
    await queryRunner.query('DROP TABLE "security_records"');
    await queryRunner.query('DROP TABLE "autonomy_downgrades"');
  }
}
