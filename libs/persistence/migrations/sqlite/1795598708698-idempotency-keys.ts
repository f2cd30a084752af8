import type { MigrationInterface, QueryRunner } from 'typeorm';

export class IdempotencyKeys1795598708698 implements MigrationInterface {
  name = 'IdempotencyKeys1795598708698';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "idempotency_keys" ("id" varchar(64) PRIMARY KEY NOT NULL, "fingerprint" varchar(64) NOT NULL, "claim_token" varchar(36) NOT NULL, "status_code" integer, "response" text, "locked_until" datetime, "created_at" datetime NOT NULL, "expires_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_idempotency_keys_expires_at" ON "idempotency_keys" ("expires_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_idempotency_keys_expires_at"');
    await queryRunner.query('DROP TABLE "idempotency_keys"');
  }
}
