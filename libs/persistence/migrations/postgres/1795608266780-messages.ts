import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Messages1795608266780 implements MigrationInterface {
  name = 'Messages1795608266780';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "messages" ("id" character varying(36) NOT NULL, "timestamp" TIMESTAMP NOT NULL, "sender" character varying(256) NOT NULL, "recipient" character varying(256) NOT NULL, "type" character varying(32) NOT NULL, "priority" character varying(16) NOT NULL, "channel" character varying(128) NOT NULL, "content" text NOT NULL, "attachments" text NOT NULL, "metadata" text NOT NULL, CONSTRAINT "PK_messages" PRIMARY KEY ("id"))',
    );
    await queryRunner.query('CREATE INDEX "IDX_messages_timestamp_id" ON "messages"  ("timestamp", "id") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_messages_channel_timestamp_id" ON "messages"  ("channel", "timestamp", "id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "message_channels" ("name" character varying(128) NOT NULL, "type" character varying(16) NOT NULL, "subscribers" text NOT NULL, "created_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_message_channels" PRIMARY KEY ("name"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "message_channels"');
    await queryRunner.query('DROP INDEX "public"."IDX_messages_channel_timestamp_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_messages_timestamp_id"');
    await queryRunner.query('DROP TABLE "messages"');
  }
}
