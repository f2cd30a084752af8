import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Reads that must not grow with history:
 * - an agent's newest security record of one kind (the last autonomy change, read after every
 *   finished run; the trust history) goes through (agent_id, kind, created_at, id). With only
 *   (agent_id, created_at), a kind the agent never had meant reading all its records, one per tool
 *   call it ever made;
 * - the provider calls of the last quota window, read at every start and provider reload to rebuild
 *   the quotas, go through (started_at). With only (provider, started_at), that read scanned every
 *   call ever recorded.
 */
export class HistoryReadIndexes1795700000003 implements MigrationInterface {
  name = 'HistoryReadIndexes1795700000003';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      'CREATE INDEX "IDX_security_records_agent_id_kind_created_at_id" ON "security_records"  ("agent_id", "kind", "created_at", "id") ',
    );
    await queryRunner.query('CREATE INDEX "IDX_provider_calls_started_at" ON "provider_calls"  ("started_at") ');
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query('DROP INDEX "public"."IDX_provider_calls_started_at"');
    await queryRunner.query('DROP INDEX "public"."IDX_security_records_agent_id_kind_created_at_id"');
  }
}
