import type { MigrationInterface, QueryRunner } from 'typeorm';

export class SecurityTrust1795620251854 implements MigrationInterface {
  name = 'SecurityTrust1795620251854';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "agent_trust" ("agent_id" character varying(36) NOT NULL, "strategy" character varying(16) NOT NULL, "level" character varying(16) NOT NULL, "score" double precision, "pending_level" character varying(16), "pending_approval_id" character varying(64), "runs_at_last_change" integer NOT NULL DEFAULT \'0\', "last_changed_at" TIMESTAMP, "last_verified_at" TIMESTAMP NOT NULL, "evaluated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_agent_trust" PRIMARY KEY ("agent_id"))',
    );
    await queryRunner.query('ALTER TABLE "tasks" ADD "result" text');
    await queryRunner.query('ALTER TABLE "tasks" ADD "output_withheld" boolean NOT NULL DEFAULT false');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "tasks" DROP COLUMN "output_withheld"');
    await queryRunner.query('ALTER TABLE "tasks" DROP COLUMN "result"');
    await queryRunner.query('DROP TABLE "agent_trust"');
  }
}
