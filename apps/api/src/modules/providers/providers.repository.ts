import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';
import { MoreThanOrEqual, type Repository } from 'typeorm';

import type { ProviderCallStats } from '@app/domain';
import { ProviderCallEntity, ProviderEntity } from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

export type NewProviderCall = Omit<ProviderCallEntity, 'id'>;

/** The only TypeORM user for model providers and their call records. */
@Injectable()
export class ProvidersRepository {
  constructor(private readonly database: DatabaseService) {}

  private repo(tx?: Transaction): Repository<ProviderEntity> {
    return this.database.manager(tx).getRepository(ProviderEntity);
  }

  count(): Promise<number> {
    return this.repo().count();
  }

  all(): Promise<ProviderEntity[]> {
    return this.repo().find({ order: { name: 'ASC' } });
  }

  async page(offset: number, limit: number): Promise<{ items: ProviderEntity[]; total: number }> {
    const [items, total] = await this.repo().findAndCount({ order: { name: 'ASC' }, skip: offset, take: limit });
    return { items, total };
  }

  findByName(name: string, tx?: Transaction): Promise<ProviderEntity | null> {
    return this.repo(tx).findOneBy({ name });
  }

  insert(entity: ProviderEntity, tx?: Transaction): Promise<unknown> {
    return this.repo(tx).insert(entity);
  }

  /** Compare-and-set on the version: false when another writer got there first. */
  async update(entity: ProviderEntity, expectedVersion: number, tx?: Transaction): Promise<boolean> {
    const { name, ...fields } = entity;
    const result = await this.repo(tx).update({ name, version: expectedVersion }, fields);
    return (result.affected ?? 0) > 0;
  }

  async delete(name: string, tx?: Transaction): Promise<boolean> {
    const result = await this.repo(tx).delete({ name });
    return (result.affected ?? 0) > 0;
  }

  /** Stores calls in one statement. */
  recordCalls(calls: readonly NewProviderCall[]): Promise<unknown> {
    return this.database.dataSource
      .getRepository(ProviderCallEntity)
      .insert(calls.map((call) => ({ id: randomUUID(), ...call })));
  }

  /** Aggregates of one provider's calls since `since` (the 24-hour health window). */
  async callStats(provider: string, since: Date): Promise<ProviderCallStats> {
    const ds = this.database.dataSource;
    const calls = ds.getRepository(ProviderCallEntity);
    const column = ds.getMetadata(ProviderCallEntity).findColumnWithPropertyName('startedAt');
    // The dialect's own stored form of the date, so the comparison is right on both backends.
    const sinceValue: unknown = column ? ds.driver.preparePersistentValue(since, column) : since;
    const raw = await calls
      .createQueryBuilder('c')
      .select('COUNT(*)', 'calls')
      .addSelect('COALESCE(SUM(CASE WHEN c.success THEN 0 ELSE 1 END), 0)', 'errors')
      .addSelect('COALESCE(SUM(c.latency_ms), 0)', 'latency')
      .addSelect('COALESCE(SUM(c.input_tokens + c.output_tokens), 0)', 'tokens')
      .addSelect('COALESCE(SUM(c.cost), 0)', 'cost')
      .where('c.provider = :provider AND c.started_at >= :since', { provider, since: sinceValue })
      .getRawOne<{ calls: unknown; errors: unknown; latency: unknown; tokens: unknown; cost: unknown }>();
    const last = await calls.findOne({
      select: { id: true, startedAt: true },
      where: { provider, startedAt: MoreThanOrEqual(since) },
      order: { startedAt: 'DESC' },
    });
    return {
      calls: Number(raw?.calls ?? 0),
      errors: Number(raw?.errors ?? 0),
      totalLatencyMs: Number(raw?.latency ?? 0),
      totalTokens: Number(raw?.tokens ?? 0),
      totalCost: Number(raw?.cost ?? 0),
      lastCallAt: last?.startedAt ?? null,
    };
  }

  /** Calls since `since`, for rebuilding quota usage after a restart. */
  callsSince(since: Date): Promise<ProviderCallEntity[]> {
    return this.database.dataSource.getRepository(ProviderCallEntity).find({
      select: { provider: true, startedAt: true, inputTokens: true, outputTokens: true },
      where: { startedAt: MoreThanOrEqual(since) },
    });
  }
}
