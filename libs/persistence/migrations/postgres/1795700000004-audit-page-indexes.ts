import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail's list pages by actor or by action, newest first (at DESC, seq DESC): with seq in
 * their indexes the order comes from the index whole, ties on `at` included, and a deep page reads
 * the sequence numbers it skips from the index alone instead of from every row before it.
 */
export class AuditPageIndexes1795700000004 implements MigrationInterface {
  name = 'AuditPageIndexes1795700000004';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_audit_entries_action_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_audit_entries_actor_at"');
    await queryRunner.query(
      'CREATE INDEX "IDX_audit_entries_action_at_seq" ON "audit_entries"  ("action", "at", "seq") ',
    );
    await queryRunner.query(
      'CREATE INDEX "IDX_audit_entries_actor_at_seq" ON "audit_entries"  ("actor", "at", "seq") ',
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_audit_entries_actor_at_seq"');
    await queryRunner.query('DROP INDEX "public"."IDX_audit_entries_action_at_seq"');
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_actor_at" ON "audit_entries"  ("actor", "at") ');
    await queryRunner.query('CREATE INDEX "IDX_audit_entries_action_at" ON "audit_entries"  ("action", "at") ');
  }
}
