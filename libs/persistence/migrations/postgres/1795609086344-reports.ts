import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Reports1795609086344 implements MigrationInterface {
  name = 'Reports1795609086344';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "reports" ("id" character varying(36) NOT NULL, "period" character varying(16) NOT NULL, "template" character varying(32) NOT NULL, "period_start" TIMESTAMP NOT NULL, "period_end" TIMESTAMP NOT NULL, "sections" text NOT NULL, "content" text NOT NULL, "trigger" character varying(16) NOT NULL, "schedule_key" character varying(96), "generated_by" character varying(256) NOT NULL, "generated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_reports" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_reports_schedule_key" ON "reports"  ("schedule_key") ');
    await queryRunner.query('CREATE INDEX "IDX_reports_generated_at_id" ON "reports"  ("generated_at", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_reports_generated_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_reports_schedule_key"');
    await queryRunner.query('DROP TABLE "reports"');
  }
}
