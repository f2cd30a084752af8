import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Reports1795609086344 implements MigrationInterface {
  name = 'Reports1795609086344';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "reports" ("id" varchar(36) PRIMARY KEY NOT NULL, "period" varchar(16) NOT NULL, "template" varchar(32) NOT NULL, "period_start" datetime NOT NULL, "period_end" datetime NOT NULL, "sections" text NOT NULL, "content" text NOT NULL, "trigger" varchar(16) NOT NULL, "schedule_key" varchar(96), "generated_by" varchar(256) NOT NULL, "generated_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE UNIQUE INDEX "IDX_reports_schedule_key" ON "reports" ("schedule_key") ');
    await queryRunner.query('CREATE INDEX "IDX_reports_generated_at_id" ON "reports" ("generated_at", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_reports_generated_at_id"');
    await queryRunner.query('DROP INDEX "IDX_reports_schedule_key"');
    await queryRunner.query('DROP TABLE "reports"');
  }
}
