import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProviderRuntime1795287671026 implements MigrationInterface {
  name = 'ProviderRuntime1795287671026';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "provider_calls" ("id" character varying(36) NOT NULL, "provider" character varying(100) NOT NULL, "model" character varying(256) NOT NULL, "kind" character varying(16) NOT NULL, "started_at" TIMESTAMP NOT NULL, "latency_ms" integer NOT NULL, "success" boolean NOT NULL, "error_code" integer, "input_tokens" integer NOT NULL DEFAULT \'0\', "output_tokens" integer NOT NULL DEFAULT \'0\', "cost" double precision NOT NULL DEFAULT \'0\', CONSTRAINT "PK_provider_calls" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_provider_calls_provider_started_at" ON "provider_calls"  ("provider", "started_at") ',
    );
    await queryRunner.query('ALTER TABLE "providers" ADD "quota" text');
    await queryRunner.query('ALTER TABLE "providers" ADD "oauth_token_url" character varying(512)');
    await queryRunner.query('ALTER TABLE "providers" ADD "oauth_client_id" character varying(256)');
    await queryRunner.query('ALTER TABLE "providers" ADD "oauth_scope" character varying(512)');
    await queryRunner.query('ALTER TABLE "providers" ADD "custom_header_name" character varying(128)');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "providers" DROP COLUMN "custom_header_name"');
    await queryRunner.query('ALTER TABLE "providers" DROP COLUMN "oauth_scope"');
    await queryRunner.query('ALTER TABLE "providers" DROP COLUMN "oauth_client_id"');
    await queryRunner.query('ALTER TABLE "providers" DROP COLUMN "oauth_token_url"');
    await queryRunner.query('ALTER TABLE "providers" DROP COLUMN "quota"');
    await queryRunner.query('DROP INDEX "public"."IDX_provider_calls_provider_started_at"');
    await queryRunner.query('DROP TABLE "provider_calls"');
  }
}
