import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ToolServers1795860000000 implements MigrationInterface {
  name = 'ToolServers1795860000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "tool_servers" ("name" character varying(40) NOT NULL, "transport" character varying(16) NOT NULL, "command" character varying(1024), "args" text NOT NULL, "env_names" text NOT NULL, "url" character varying(2048), "auth_header_name" character varying(128), "secrets" text, "secrets_key_id" character varying(64), "allowed_departments" text NOT NULL, "allowed_agents" text NOT NULL, "tool_actions" text NOT NULL, "tools" text NOT NULL, "tools_listed_at" TIMESTAMP, "version" integer NOT NULL DEFAULT \'1\', "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_tool_servers" PRIMARY KEY ("name"))',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP TABLE "tool_servers"');
  }
}
