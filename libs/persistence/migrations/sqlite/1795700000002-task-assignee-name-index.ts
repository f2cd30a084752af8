import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The task list's `assigned_to` filter matches the agent's id or, for a former agent, its name in
 * any ASCII case (`LOWER(assigned_to)`): an expression index lets that side of the OR use an index
 * too, instead of scanning every task. Declared on the entity with `synchronize: false`.
 */
export class TaskAssigneeNameIndex1795700000002 implements MigrationInterface {
  name = 'TaskAssigneeNameIndex1795700000002';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('CREATE INDEX "IDX_tasks_assigned_to_lower" ON "tasks" (LOWER("assigned_to"))');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_tasks_assigned_to_lower"');
  }
}
