import type { MigrationInterface, QueryRunner } from 'typeorm';

export class AuthSessionsEvents1795282436928 implements MigrationInterface {
  name = 'AuthSessionsEvents1795282436928';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "domain_events" ("id" SERIAL NOT NULL, "channel" character varying(64) NOT NULL, "event_type" character varying(128) NOT NULL, "payload" text NOT NULL, "origin_id" character varying(64) NOT NULL, "created_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_domain_events" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_domain_events_created_at" ON "domain_events"  ("created_at") ');
    await queryRunner.query(
      'CREATE TABLE "login_failures" ("id" SERIAL NOT NULL, "username" character varying(128) NOT NULL, "failed_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_login_failures" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_login_failures_username_failed_at" ON "login_failures"  ("username", "failed_at") ',
    );
    await queryRunner.query(
      'CREATE TABLE "rate_limit_buckets" ("key" character varying(255) NOT NULL, "hits" integer NOT NULL, "expires_at" TIMESTAMP NOT NULL, "blocked_until" TIMESTAMP, CONSTRAINT "PK_rate_limit_buckets" PRIMARY KEY ("key"))',
    );
    await queryRunner.query(
      'CREATE TABLE "users" ("id" character varying(36) NOT NULL, "username" character varying(128) NOT NULL, "password_hash" text NOT NULL, "role" character varying(32) NOT NULL, "must_change_password" boolean NOT NULL DEFAULT false, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "UQ_users_username" UNIQUE ("username"), CONSTRAINT "PK_users" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE TABLE "sessions" ("id" character varying(64) NOT NULL, "user_id" character varying(36) NOT NULL, "ip_address" character varying(64), "user_agent" character varying(512), "created_at" TIMESTAMP NOT NULL, "last_active_at" TIMESTAMP NOT NULL, "expires_at" TIMESTAMP NOT NULL, "revoked_at" TIMESTAMP, CONSTRAINT "PK_sessions" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_sessions_user_id" ON "sessions"  ("user_id") ');
    await queryRunner.query(
      'CREATE TABLE "ws_tickets" ("ticket_hash" character varying(64) NOT NULL, "user_id" character varying(36) NOT NULL, "session_id" character varying(64) NOT NULL, "created_at" TIMESTAMP NOT NULL, "expires_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_ws_tickets" PRIMARY KEY ("ticket_hash"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_ws_tickets_user_id" ON "ws_tickets"  ("user_id") ');
    await queryRunner.query(
      'ALTER TABLE "sessions" ADD CONSTRAINT "FK_sessions_user_id" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "sessions" DROP CONSTRAINT "FK_sessions_user_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_ws_tickets_user_id"');
    await queryRunner.query('DROP TABLE "ws_tickets"');
    await queryRunner.query('DROP INDEX "public"."IDX_sessions_user_id"');
    await queryRunner.query('DROP TABLE "sessions"');
    await queryRunner.query('DROP TABLE "users"');
    await queryRunner.query('DROP TABLE "rate_limit_buckets"');
    await queryRunner.query('DROP INDEX "public"."IDX_login_failures_username_failed_at"');
    await queryRunner.query('DROP TABLE "login_failures"');
    await queryRunner.query('DROP INDEX "public"."IDX_domain_events_created_at"');
    await queryRunner.query('DROP TABLE "domain_events"');
  }
}
