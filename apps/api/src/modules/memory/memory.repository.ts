import { Injectable } from '@nestjs/common';
import { type FindOptionsWhere, In, IsNull, type ObjectLiteral, type Repository } from 'typeorm';

import type { MemoryEntryEntity, OrgFactEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** Rows read per batch when the index is rebuilt. */
const REBUILD_BATCH = 5_000;

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

  /** Every entry, in batches ordered by id (the index rebuild); `visit` gets each batch. */
  async forEachEntry(visit: (rows: MemoryEntryEntity[]) => void): Promise<void> {
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
      visit(rows);
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
