import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SecurityTrust1795620251854 implements MigrationInterface {
  name = 'SecurityTrust1795620251854';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "agent_trust" ("agent_id" varchar(36) PRIMARY KEY NOT NULL, "strategy" varchar(16) NOT NULL, "level" varchar(16) NOT NULL, "score" float, "pending_level" varchar(16), "pending_approval_id" varchar(64), "runs_at_last_change" integer NOT NULL DEFAULT (0), "last_changed_at" datetime, "last_verified_at" datetime NOT NULL, "evaluated_at" datetime NOT NULL)',
    );
    await queryRunner.query('ALTER TABLE "tasks" ADD COLUMN "result" text');
    await queryRunner.query('ALTER TABLE "tasks" ADD COLUMN "output_withheld" boolean NOT NULL DEFAULT (0)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "tasks" DROP COLUMN "output_withheld"');
    await queryRunner.query('ALTER TABLE "tasks" DROP COLUMN "result"');
    await queryRunner.query('DROP TABLE "agent_trust"');
  }
}
