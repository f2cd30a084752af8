import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "settings" ("namespace" character varying(64) NOT NULL, "key" character varying(128) NOT NULL, ` +
        `"value" text NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_settings" PRIMARY KEY ("namespace", "key"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "settings"`);
  }
}
