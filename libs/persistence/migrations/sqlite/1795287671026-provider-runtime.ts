import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ProviderRuntime1795287671026 implements MigrationInterface {
  name = 'ProviderRuntime1795287671026';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "provider_calls" ("id" varchar(36) PRIMARY KEY NOT NULL, "provider" varchar(100) NOT NULL, "model" varchar(256) NOT NULL, "kind" varchar(16) NOT NULL, "started_at" datetime NOT NULL, "latency_ms" integer NOT NULL, "success" boolean NOT NULL, "error_code" integer, "input_tokens" integer NOT NULL DEFAULT (0), "output_tokens" integer NOT NULL DEFAULT (0), "cost" float NOT NULL DEFAULT (0))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_provider_calls_provider_started_at" ON "provider_calls" ("provider", "started_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "temporary_providers" ("name" varchar(100) PRIMARY KEY NOT NULL, "auth_type" varchar(32) NOT NULL, "base_url" varchar(512), "gateway_provider" varchar(100), "family" varchar(100), "preset" varchar(64), "models" text NOT NULL, "degradation" text NOT NULL, "secrets" text, "secrets_key_id" varchar(64), "tos_accepted_at" datetime, "version" integer NOT NULL DEFAULT (1), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL, "quota" text, "oauth_token_url" varchar(512), "oauth_client_id" varchar(256), "oauth_scope" varchar(512), "custom_header_name" varchar(128))',
    );
    await queryRunner.query(
      'INSERT INTO "temporary_providers"("name", "auth_type", "base_url", "gateway_provider", "family", "preset", "models", "degradation", "secrets", "secrets_key_id", "tos_accepted_at", "version", "created_at", "updated_at") SELECT "name", "auth_type", "base_url", "gateway_provider", "family", "preset", "models", "degradation", "secrets", "secrets_key_id", "tos_accepted_at", "version", "created_at", "updated_at" FROM "providers"',
    );
    await queryRunner.query('DROP TABLE "providers"');
    await queryRunner.query('ALTER TABLE "temporary_providers" RENAME TO "providers"');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "providers" RENAME TO "temporary_providers"');
    await queryRunner.query(
      'CREATE TABLE "providers" ("name" varchar(100) PRIMARY KEY NOT NULL, "auth_type" varchar(32) NOT NULL, "base_url" varchar(512), "gateway_provider" varchar(100), "family" varchar(100), "preset" varchar(64), "models" text NOT NULL, "degradation" text NOT NULL, "secrets" text, "secrets_key_id" varchar(64), "tos_accepted_at" datetime, "version" integer NOT NULL DEFAULT (1), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'INSERT INTO "providers"("name", "auth_type", "base_url", "gateway_provider", "family", "preset", "models", "degradation", "secrets", "secrets_key_id", "tos_accepted_at", "version", "created_at", "updated_at") SELECT "name", "auth_type", "base_url", "gateway_provider", "family", "preset", "models", "degradation", "secrets", "secrets_key_id", "tos_accepted_at", "version", "created_at", "updated_at" FROM "temporary_providers"',
    );
    await queryRunner.query('DROP TABLE "temporary_providers"');
    await queryRunner.query('DROP INDEX "IDX_provider_calls_provider_started_at"');
    await queryRunner.query('DROP TABLE "provider_calls"');
  }
}
