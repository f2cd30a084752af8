import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Artifacts1795609822777 implements MigrationInterface {
  name = 'Artifacts1795609822777';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "artifacts" ("id" varchar(128) PRIMARY KEY NOT NULL, "type" varchar(32) NOT NULL, "path" varchar(1024) NOT NULL, "task_id" varchar(128) NOT NULL, "created_by" varchar(128) NOT NULL, "description" text NOT NULL, "project_id" varchar(128), "content_type" varchar(255) NOT NULL, "size_bytes" integer NOT NULL, "sha256" varchar(64), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_artifacts_type_created_at_id" ON "artifacts" ("type", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_artifacts_created_by_created_at_id" ON "artifacts" ("created_by", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_artifacts_task_id_created_at_id" ON "artifacts" ("task_id", "created_at", "id") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_artifacts_created_at_id" ON "artifacts" ("created_at", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_artifacts_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_artifacts_task_id_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_artifacts_created_by_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_artifacts_type_created_at_id"');
    await queryRunner.query('DROP TABLE "artifacts"');
  }
}
