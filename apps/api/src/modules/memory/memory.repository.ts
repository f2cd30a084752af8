import { Injectable } from '@nestjs/common';
import { type FindOptionsWhere, In, IsNull, type ObjectLiteral, type Repository } from 'typeorm';

import {
  MemoryEmbedderStateEntity,
  type MemoryEntryEntity,
  type MemoryPendingVectorEntity,
  type OrgFactEntity,
} from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** Rows read per batch when the index is rebuilt. */
const REBUILD_BATCH = 5_000;
/** The one row of `memory_embedder_state`. */
const EMBEDDER_STATE_ID = 'current';
/** Rows per INSERT when many are written (under both dialects' bound-parameter ceilings). */
const WRITE_BATCH = 200;

/** A page of one agent's entries, newest first. */
export interface MemoryPageQuery {
  agentId: string;
  category?: string;
  project?: string;
  offset: number;
  limit: number;
}

/**
 * The only TypeORM user for memory entries and org facts. The entities differ per dialect only in
 * the vector column's type, so the repository takes whichever the data source registered under the
 * table's name.
 */
@Injectable()
export class MemoryRepository {
  constructor(private readonly database: DatabaseService) {}

  private table<T extends ObjectLiteral>(name: string): Repository<T> {
    const ds = this.database.dataSource;
    const metadata = ds.entityMetadatas.find((m) => m.tableName === name);
    if (!metadata) {
      throw new Error(`no entity is registered for the table ${name}`);
    }
    return ds.getRepository<T>(metadata.target);
  }

  private entries(): Repository<MemoryEntryEntity> {
    return this.table<MemoryEntryEntity>('memory_entries');
  }

  private facts(): Repository<OrgFactEntity> {
    return this.table<OrgFactEntity>('org_facts');
  }

  private pending(): Repository<MemoryPendingVectorEntity> {
    return this.table<MemoryPendingVectorEntity>('memory_pending_vectors');
  }

  /** The stored embedder state (the embedder retrieval uses, a re-embedding in progress), or null. */
  embedderState(): Promise<MemoryEmbedderStateEntity | null> {
    return this.database.dataSource.getRepository(MemoryEmbedderStateEntity).findOneBy({ id: EMBEDDER_STATE_ID });
  }

  async saveEmbedderState(state: Omit<MemoryEmbedderStateEntity, 'id'>): Promise<void> {
    await this.database.dataSource.getRepository(MemoryEmbedderStateEntity).save({ ...state, id: EMBEDDER_STATE_ID });
  }

  /**
   * Up to `limit` entries (or facts) still to re-embed toward `marker`, made by another embedder and
   * without a pending vector of it, after the id `afterId` in id order (a cursor: each batch is a
   * range of the key), of one agent when `agentId` is given.
   */
  async toReembed<K extends 'entry' | 'fact'>(
    kind: K,
    marker: string,
    limit: number,
    cursor: { afterId: string; agentId?: string },
  ): Promise<(K extends 'entry' ? MemoryEntryEntity : OrgFactEntity)[]> {
    const qb = this.reembedQuery(kind, marker).andWhere('m.id > :after', { after: cursor.afterId });
    if (cursor.agentId !== undefined) {
      qb.andWhere('m.agentId = :agent', { agent: cursor.agentId });
    }
    const rows = await qb.orderBy('m.id', 'ASC').take(limit).getMany();
    return rows as (K extends 'entry' ? MemoryEntryEntity : OrgFactEntity)[];
  }

  /** Agents holding entries made by another embedder than `marker`. */
  async agentsToReembed(marker: string): Promise<string[]> {
    const rows = await this.entries()
      .createQueryBuilder('m')
      .select('m.agentId', 'agentId')
      .where('m.embedder != :marker', { marker })
      .groupBy('m.agentId')
      .getRawMany<{ agentId: string }>();
    return rows.map((r) => r.agentId);
  }

  /** How many entries and facts are still to re-embed toward `marker`. */
  async countToReembed(marker: string): Promise<number> {
    const [entries, facts] = await Promise.all([
      this.reembedQuery('entry', marker).getCount(),
      this.reembedQuery('fact', marker).getCount(),
    ]);
    return entries + facts;
  }

  private reembedQuery(kind: 'entry' | 'fact', marker: string) {
    const repository: Repository<ObjectLiteral> = kind === 'entry' ? this.entries() : this.facts();
    return repository
      .createQueryBuilder('m')
      .leftJoin(
        this.pending().target as () => MemoryPendingVectorEntity,
        'p',
        'p.kind = :kind AND p.id = m.id AND p.embedder = :marker',
        { kind, marker },
      )
      .where('m.embedder != :marker', { marker })
      .andWhere('p.id IS NULL');
  }

  /** Stores vectors made by a re-embedding's target, replacing earlier ones of the same rows. */
  async putPending(rows: readonly MemoryPendingVectorEntity[]): Promise<void> {
    if (rows.length === 0) {
      return;
    }
    const target = this.pending().target;
    await this.database.dataSource.transaction(async (manager) => {
      const repository = manager.getRepository<MemoryPendingVectorEntity>(target);
      for (const kind of ['entry', 'fact']) {
        const ids = rows.filter((r) => r.kind === kind).map((r) => r.id);
        if (ids.length > 0) {
          await repository.delete({ kind, id: In(ids) });
        }
      }
      for (let i = 0; i < rows.length; i += WRITE_BATCH) {
        await repository.insert(rows.slice(i, i + WRITE_BATCH));
      }
    });
  }

  /** Drops every pending vector (a re-embedding abandoned for another target, or finished). */
  async clearPending(): Promise<void> {
    await this.pending().createQueryBuilder().delete().execute();
  }

  /**
   * The switch at the end of a re-embedding, in one transaction: every row with a pending vector of
   * `marker` takes it as its own, the pending vectors go, and the state is saved (retrieval now uses
   * the target).
   */
  async switchToPending(marker: string, state: Omit<MemoryEmbedderStateEntity, 'id'>): Promise<void> {
    const postgres = this.database.dataSource.options.type === 'postgres';
    const param = (n: number) => (postgres ? `$${n}` : '?');
    await this.database.dataSource.transaction(async (manager) => {
      for (const [table, kind] of [
        ['memory_entries', 'entry'],
        ['org_facts', 'fact'],
      ] as const) {
        const pending = `SELECT p."id" FROM "memory_pending_vectors" p WHERE p."kind" = '${kind}' AND p."embedder" = ${param(1)}`;
        await manager.query(
          `UPDATE "${table}" SET "embedding" = (SELECT p."embedding" FROM "memory_pending_vectors" p ` +
            `WHERE p."kind" = '${kind}' AND p."id" = "${table}"."id"), "embedder" = ${param(postgres ? 1 : 2)} ` +
            `WHERE "id" IN (${pending})`,
          postgres ? [marker] : [marker, marker],
        );
      }
      await manager
        .getRepository<MemoryPendingVectorEntity>(this.pending().target)
        .createQueryBuilder()
        .delete()
        .execute();
      await manager.getRepository(MemoryEmbedderStateEntity).save({ ...state, id: EMBEDDER_STATE_ID });
    });
  }

  /** Replaces rows' vectors and embedder directly (rows stored with the old embedder around a switch). */
  async setVectors(
    kind: 'entry' | 'fact',
    rows: readonly { id: string; embedder: string; embedding: Buffer }[],
  ): Promise<void> {
    const repository: Repository<ObjectLiteral> = kind === 'entry' ? this.entries() : this.facts();
    for (const row of rows) {
      await repository.update({ id: row.id }, { embedder: row.embedder, embedding: row.embedding });
    }
  }

  async insert(row: MemoryEntryEntity): Promise<void> {
    await this.entries().insert(row);
  }

  find(id: string): Promise<MemoryEntryEntity | null> {
    return this.entries().findOneBy({ id });
  }

  /** Deletes an entry; false when there was none. */
  async delete(id: string): Promise<boolean> {
    const result = await this.entries().delete({ id });
    return (result.affected ?? 0) > 0;
  }

  async page(query: MemoryPageQuery): Promise<{ rows: MemoryEntryEntity[]; total: number }> {
    const where: FindOptionsWhere<MemoryEntryEntity> = { agentId: query.agentId };
    if (query.category) {
      where.category = query.category;
    }
    if (query.project) {
      where.project = query.project;
    }
    const [rows, total] = await this.entries().findAndCount({
      where,
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: query.offset,
      take: query.limit,
    });
    return { rows, total };
  }

  /** Every entry, in batches ordered by id (the index rebuild, a backup); `visit` gets each batch in turn. */
  async forEachEntry(visit: (rows: MemoryEntryEntity[]) => void | Promise<void>): Promise<void> {
    let after = '';
    for (;;) {
      const rows = await this.entries()
        .createQueryBuilder('m')
        .where('m.id > :after', { after })
        .orderBy('m.id', 'ASC')
        .take(REBUILD_BATCH)
        .getMany();
      if (rows.length === 0) {
        return;
      }
      await visit(rows);
      after = rows[rows.length - 1].id;
    }
  }

  /** Agents holding entries not archived yet (consolidation's work list). */
  async agentsWithLiveEntries(): Promise<string[]> {
    const rows = await this.entries()
      .createQueryBuilder('m')
      .select('m.agentId', 'agentId')
      .where('m.archiveId IS NULL')
      .groupBy('m.agentId')
      .getRawMany<{ agentId: string }>();
    return rows.map((r) => r.agentId);
  }

  /** Rewrites a live entry's content and metadata (a merge); false when it is gone or archived. */
  async updateLive(id: string, content: string, metadata: MemoryEntryEntity['metadata'], at: Date): Promise<boolean> {
    const result = await this.entries().update({ id, archiveId: IsNull() }, { content, metadata, updatedAt: at });
    return (result.affected ?? 0) > 0;
  }

  /** Deletes entries that are not archived, in batches; answers the ids that went. */
  async deleteLive(ids: readonly string[]): Promise<string[]> {
    const gone: string[] = [];
    for (let i = 0; i < ids.length; i += 500) {
      const batch = ids.slice(i, i + 500);
      const present = await this.entries().find({
        select: { id: true },
        where: { id: In(batch), archiveId: IsNull() },
      });
      const found = present.map((r) => r.id);
      if (found.length > 0) {
        await this.entries().delete({ id: In(found), archiveId: IsNull() });
        gone.push(...found);
      }
    }
    return gone;
  }

  /** The agent's entries not archived yet, oldest first. */
  unarchived(agentId: string): Promise<MemoryEntryEntity[]> {
    return this.entries().find({ where: { agentId, archiveId: IsNull() }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Marks the entries archived and stores the facts promoted from them, in one transaction. */
  async archive(ids: readonly string[], archiveId: string, facts: readonly OrgFactEntity[]): Promise<void> {
    const entries = this.entries();
    const factsRepo = this.facts();
    await this.database.dataSource.transaction(async (manager) => {
      if (facts.length > 0) {
        await manager.getRepository<OrgFactEntity>(factsRepo.target).insert([...facts]);
      }
      for (let i = 0; i < ids.length; i += 500) {
        await manager
          .getRepository<MemoryEntryEntity>(entries.target)
          .update({ id: In(ids.slice(i, i + 500)) }, { archiveId, updatedAt: new Date() });
      }
    });
  }

  /** Replaces every entry and fact by the given ones, in one transaction (a restore of the memory component). */
  async replaceAll(entries: readonly MemoryEntryEntity[], facts: readonly OrgFactEntity[]): Promise<void> {
    const entryTarget = this.entries().target;
    const factTarget = this.facts().target;
    await this.database.dataSource.transaction(async (manager) => {
      await manager.getRepository<MemoryEntryEntity>(entryTarget).createQueryBuilder().delete().execute();
      await manager.getRepository<OrgFactEntity>(factTarget).createQueryBuilder().delete().execute();
      for (let i = 0; i < entries.length; i += WRITE_BATCH) {
        await manager.getRepository<MemoryEntryEntity>(entryTarget).insert(entries.slice(i, i + WRITE_BATCH));
      }
      for (let i = 0; i < facts.length; i += WRITE_BATCH) {
        await manager.getRepository<OrgFactEntity>(factTarget).insert(facts.slice(i, i + WRITE_BATCH));
      }
    });
  }

  counts(): Promise<{ entries: number; facts: number }> {
    return Promise.all([this.entries().count(), this.facts().count()]).then(([entries, facts]) => ({ entries, facts }));
  }

  async insertFact(row: OrgFactEntity): Promise<void> {
    await this.facts().insert(row);
  }

  findFact(id: string): Promise<OrgFactEntity | null> {
    return this.facts().findOneBy({ id });
  }

  async deleteFact(id: string): Promise<boolean> {
    const result = await this.facts().delete({ id });
    return (result.affected ?? 0) > 0;
  }

  async factPage(offset: number, limit: number, category?: string): Promise<{ rows: OrgFactEntity[]; total: number }> {
    const [rows, total] = await this.facts().findAndCount({
      where: category ? { category } : {},
      order: { createdAt: 'DESC', id: 'DESC' },
      skip: offset,
      take: limit,
    });
    return { rows, total };
  }

  allFacts(): Promise<OrgFactEntity[]> {
    return this.facts().find({ order: { createdAt: 'ASC', id: 'ASC' } });
  }
}
