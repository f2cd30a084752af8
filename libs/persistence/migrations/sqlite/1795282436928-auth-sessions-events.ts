import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuthSessionsEvents1795282436928 implements MigrationInterface {
  name = 'AuthSessionsEvents1795282436928';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "domain_events" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "channel" varchar(64) NOT NULL, "event_type" varchar(128) NOT NULL, "payload" text NOT NULL, "origin_id" varchar(64) NOT NULL, "created_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_domain_events_created_at" ON "domain_events" ("created_at") ');
    await queryRunner.query(
      'CREATE TABLE "login_failures" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "username" varchar(128) NOT NULL, "failed_at" datetime NOT NULL)',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_login_failures_username_failed_at" ON "login_failures" ("username", "failed_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "rate_limit_buckets" ("key" varchar(255) PRIMARY KEY NOT NULL, "hits" integer NOT NULL, "expires_at" datetime NOT NULL, "blocked_until" datetime)',
    );
    await queryRunner.query(
      'CREATE TABLE "users" ("id" varchar(36) PRIMARY KEY NOT NULL, "username" varchar(128) NOT NULL, "password_hash" text NOT NULL, "role" varchar(32) NOT NULL, "must_change_password" boolean NOT NULL DEFAULT (0), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL, CONSTRAINT "UQ_users_username" UNIQUE ("username"))',
    );
    await queryRunner.query(
      'CREATE TABLE "sessions" ("id" varchar(64) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "ip_address" varchar(64), "user_agent" varchar(512), "created_at" datetime NOT NULL, "last_active_at" datetime NOT NULL, "expires_at" datetime NOT NULL, "revoked_at" datetime)',
    );
    await queryRunner.query('CREATE INDEX "IDX_sessions_user_id" ON "sessions" ("user_id") ');
    await queryRunner.query(
      'CREATE TABLE "ws_tickets" ("ticket_hash" varchar(64) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "session_id" varchar(64) NOT NULL, "created_at" datetime NOT NULL, "expires_at" datetime NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_ws_tickets_user_id" ON "ws_tickets" ("user_id") ');
    await queryRunner.query('DROP INDEX "IDX_sessions_user_id"');
    await queryRunner.query(
      'CREATE TABLE "temporary_sessions" ("id" varchar(64) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "ip_address" varchar(64), "user_agent" varchar(512), "created_at" datetime NOT NULL, "last_active_at" datetime NOT NULL, "expires_at" datetime NOT NULL, "revoked_at" datetime, CONSTRAINT "FK_sessions_user_id" FOREIGN KEY ("user_id") REFERENCES "users" ("id") ON DELETE CASCADE ON UPDATE NO ACTION)',
    );
    await queryRunner.query(
      'INSERT INTO "temporary_sessions"("id", "user_id", "ip_address", "user_agent", "created_at", "last_active_at", "expires_at", "revoked_at") SELECT "id", "user_id", "ip_address", "user_agent", "created_at", "last_active_at", "expires_at", "revoked_at" FROM "sessions"',
    );
    await queryRunner.query('DROP TABLE "sessions"');
    await queryRunner.query('ALTER TABLE "temporary_sessions" RENAME TO "sessions"');
    await queryRunner.query('CREATE INDEX "IDX_sessions_user_id" ON "sessions" ("user_id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_sessions_user_id"');
    await queryRunner.query('ALTER TABLE "sessions" RENAME TO "temporary_sessions"');
    await queryRunner.query(
      'CREATE TABLE "sessions" ("id" varchar(64) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "ip_address" varchar(64), "user_agent" varchar(512), "created_at" datetime NOT NULL, "last_active_at" datetime NOT NULL, "expires_at" datetime NOT NULL, "revoked_at" datetime)',
    );
    await queryRunner.query(
      'INSERT INTO "sessions"("id", "user_id", "ip_address", "user_agent", "created_at", "last_active_at", "expires_at", "revoked_at") SELECT "id", "user_id", "ip_address", "user_agent", "created_at", "last_active_at", "expires_at", "revoked_at" FROM "temporary_sessions"',
    );
    await queryRunner.query('DROP TABLE "temporary_sessions"');
    await queryRunner.query('CREATE INDEX "IDX_sessions_user_id" ON "sessions" ("user_id") ');
    await queryRunner.query('DROP INDEX "IDX_ws_tickets_user_id"');
    await queryRunner.query('DROP TABLE "ws_tickets"');
    await queryRunner.query('DROP INDEX "IDX_sessions_user_id"');
    await queryRunner.query('DROP TABLE "sessions"');
    await queryRunner.query('DROP TABLE "users"');
    await queryRunner.query('DROP TABLE "rate_limit_buckets"');
    await queryRunner.query('DROP INDEX "IDX_login_failures_username_failed_at"');
    await queryRunner.query('DROP TABLE "login_failures"');
    await queryRunner.query('DROP INDEX "IDX_domain_events_created_at"');
    await queryRunner.query('DROP TABLE "domain_events"');
  }
}
