import type { MigrationInterface, QueryRunner } from 'typeorm';

export class Meetings1795620380907 implements MigrationInterface {
  name = 'Meetings1795620380907';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE TABLE "meetings" ("id" character varying(128) NOT NULL, "meeting_type_name" character varying(128) NOT NULL, "protocol_type" character varying(32) NOT NULL, "status" character varying(32) NOT NULL, "trigger_event" character varying(128), "token_budget" integer NOT NULL, "participant_names" text NOT NULL, "minutes" text, "error_message" text, "created_at" TIMESTAMP NOT NULL, "updated_at" TIMESTAMP NOT NULL, CONSTRAINT "PK_meetings" PRIMARY KEY ("id"))',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_meetings_meeting_type_name_created_at_id" ON "meetings"  ("meeting_type_name", "created_at", "id") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_meetings_status_created_at_id" ON "meetings"  ("status", "created_at", "id") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_meetings_created_at_id" ON "meetings"  ("created_at", "id") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_meetings_created_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_meetings_status_created_at_id"');
    await queryRunner.query('DROP INDEX "public"."IDX_meetings_meeting_type_name_created_at_id"');
    await queryRunner.query('DROP TABLE "meetings"');
  }
}
