import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ListIndexes1795603478664 implements MigrationInterface {
  name = 'ListIndexes1795603478664';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_projects_status"');
    await queryRunner.query('DROP INDEX "IDX_tasks_status_created_at"');
    await queryRunner.query('DROP INDEX "IDX_tasks_project"');
    await queryRunner.query('CREATE INDEX "IDX_departments_position" ON "departments" ("position") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_projects_lead_created_at_id" ON "projects" ("lead", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_projects_status_created_at_id" ON "projects" ("status", "created_at", "id") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_projects_created_at_id" ON "projects" ("created_at", "id") ');
    await queryRunner.query('CREATE INDEX "IDX_users_created_at_username" ON "users" ("created_at", "username") ');
    await queryRunner.query(
      'CREATE INDEX "IDX_tasks_project_created_at_id" ON "tasks" ("project", "created_at", "id") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_tasks_status_created_at_id" ON "tasks" ("status", "created_at", "id") ');
    await queryRunner.query('CREATE INDEX "IDX_tasks_created_at_id" ON "tasks" ("created_at", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "IDX_tasks_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_tasks_status_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_tasks_project_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_users_created_at_username"');
    await queryRunner.query('DROP INDEX "IDX_projects_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_projects_status_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_projects_lead_created_at_id"');
    await queryRunner.query('DROP INDEX "IDX_departments_position"');
    await queryRunner.query('CREATE INDEX "IDX_tasks_project" ON "tasks" ("project") ');
    await queryRunner.query('CREATE INDEX "IDX_tasks_status_created_at" ON "tasks" ("status", "created_at") ');
    await queryRunner.query('CREATE INDEX "IDX_projects_status" ON "projects" ("status") ');
  }
}
