import type { MigrationInterface, QueryRunner } from 'typeorm';

export class InitialSchema1763700000000 implements MigrationInterface {
  name = 'InitialSchema1763700000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "settings" ("namespace" varchar(64) NOT NULL, "key" varchar(128) NOT NULL, "value" text NOT NULL, ` +
        `"updated_at" datetime NOT NULL, PRIMARY KEY ("namespace", "key"))`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "settings"`);
  }
}
