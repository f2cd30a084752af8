import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ToolServers1795860000000 implements MigrationInterface {
  name = 'ToolServers1795860000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "tool_servers" ("name" varchar(40) PRIMARY KEY NOT NULL, "transport" varchar(16) NOT NULL, "command" varchar(1024), "args" text NOT NULL, "env_names" text NOT NULL, "url" varchar(2048), "auth_header_name" varchar(128), "secrets" text, "secrets_key_id" varchar(64), "allowed_departments" text NOT NULL, "allowed_agents" text NOT NULL, "tool_actions" text NOT NULL, "tools" text NOT NULL, "tools_listed_at" datetime, "version" integer NOT NULL DEFAULT (1), "created_at" datetime NOT NULL, "updated_at" datetime NOT NULL)',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "tool_servers"');
  }
}
