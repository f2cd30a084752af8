import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An agent's version: bumped by every write of its row, it is the agent's ETag and the
 * compare-and-set of its edits (PATCH /agents/{agent_name} with If-Match). Existing agents start at 1.
 */
export class AgentVersion1795750000000 implements MigrationInterface {
  name = 'AgentVersion1795750000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "agents" ADD COLUMN "version" integer NOT NULL DEFAULT (1)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('ALTER TABLE "agents" DROP COLUMN "version"');
  }
}
