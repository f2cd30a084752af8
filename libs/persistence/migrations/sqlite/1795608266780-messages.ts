import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Messages1795608266780 implements MigrationInterface {
  name = 'Messages1795608266780';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "messages" ("id" varchar(36) PRIMARY KEY NOT NULL, "timestamp" datetime NOT NULL, "sender" varchar(256) NOT NULL, "recipient" varchar(256) NOT NULL, "type" varchar(32) NOT NULL, "priority" varchar(16) NOT NULL, "channel" varchar(128) NOT NULL, "content" text NOT NULL, "attachments" text NOT NULL, "metadata" text NOT NULL)',
    );
    await queryRunner.query('CREATE INDEX "IDX_messages_timestamp_id" ON "messages" ("timestamp", "id") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_messages_channel_timestamp_id" ON "messages" ("channel", "timestamp", "id") ',
    );
    await queryRunner.query(
      'CREATE TABLE "message_channels" ("name" varchar(128) PRIMARY KEY NOT NULL, "type" varchar(16) NOT NULL, "subscribers" text NOT NULL, "created_at" datetime NOT NULL)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "message_channels"');
    await queryRunner.query('DROP INDEX "IDX_messages_channel_timestamp_id"');
    await queryRunner.query('DROP INDEX "IDX_messages_timestamp_id"');
    await queryRunner.query('DROP TABLE "messages"');
  }
}
