import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1795598708698 implements MigrationInterface {
  name = 'IdempotencyKeys1795598708698';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "idempotency_keys" ("id" character varying(64) NOT NULL, "fingerprint" character varying(64) NOT NULL, "claim_token" character varying(36) NOT NULL, "status_code" integer, "response" text, "locked_until" TIMESTAMP, "created_at" TIMESTAMP NOT NULL, "expires_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_idempotency_keys" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_idempotency_keys_expires_at" ON "idempotency_keys"  ("expires_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_idempotency_keys_expires_at"');
    await queryRunner.query('DROP TABLE "idempotency_keys"');
  }
}
