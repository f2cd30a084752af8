import { Injectable } from '@nestjs/common';
import { In, MoreThanOrEqual, type Repository } from 'typeorm';

import { ACTIVITY_SOURCE_CAP, type PageRequest } from '@app/domain';
import {
  AgentEntity,
  AgentLifecycleEventEntity,
  countNewest,
  EntityStatements,
  type FeedSource,
  newestRows,
  pagedQuery,
} from '@app/persistence';
import { DatabaseService, type Transaction } from '@app/platform';

import { AGENT_ROW_COLUMNS, type AgentRow } from './agents.mapper';

/** Which career events a feed holds: since a moment (null: any time), of one agent, of one type. */
export interface LifecycleFeedScope {
  since: Date | null;
  agentId?: string;
  eventType?: string;
}

/** The only TypeORM user for agents and their career log. */
@Injectable()
export class AgentsRepository {
  constructor(private readonly database: DatabaseService) {}

  private agents(tx?: Transaction): Repository<AgentEntity> {
    return this.database.manager(tx).getRepository(AgentEntity);
  }

  private get events(): Repository<AgentLifecycleEventEntity> {
    return this.database.dataSource.getRepository(AgentLifecycleEventEntity);
  }

  count(): Promise<number> {
    return this.agents().count();
  }

  /** One page of the roster in its stored order, as raw rows of the response's columns. */
  async page(request: PageRequest): Promise<{ items: AgentRow[]; total: number }> {
    const { rows, total } = await pagedQuery<AgentRow>({
      source: this.database.dataSource,
      table: 'agents',
      columns: AGENT_ROW_COLUMNS,
      orderBy: ['position ASC'],
      offset: request.offset,
      limit: request.limit,
    });
    return { items: rows, total };
  }

  /** Roster order: the position is the setup wizard's agent_index. */
  all(tx?: Transaction): Promise<AgentEntity[]> {
    return this.agents(tx).find({ order: { position: 'ASC' } });
  }

  findByName(name: string): Promise<AgentEntity | null> {
    return this.agents().findOneBy({ nameKey: name.trim().toLowerCase() });
  }

  /**
   * An agent by id or (case-insensitive) name, in one query: both are unique, so at most two rows
   * match, and the id's wins.
   */
  async findByRef(ref: string): Promise<AgentEntity | null> {
    const nameKey = ref.trim().toLowerCase();
    // Read on every run and every assignment: without the query builder (see EntityStatements).
    const rows = await EntityStatements.for(this.database.dataSource, AgentEntity).find([{ id: ref }, { nameKey }], {
      limit: 2,
    });
    return rows.find((row) => row.id === ref) ?? rows.find((row) => row.nameKey === nameKey) ?? null;
  }

  /** Head count per department key (one grouped query, not a roster read). */
  async countByDepartment(departmentKey?: string): Promise<Map<string, number>> {
    const query = this.agents()
      .createQueryBuilder('a')
      .select('a.department', 'department')
      .addSelect('COUNT(*)', 'count')
      .groupBy('a.department');
    if (departmentKey !== undefined) {
      query.where('a.department = :departmentKey', { departmentKey });
    }
    const rows = await query.getRawMany<{ department: string; count: number | string }>();
    return new Map(rows.map((r) => [r.department, Number(r.count)]));
  }

  findByDepartment(departmentKey: string): Promise<AgentEntity[]> {
    return this.agents().find({ where: { department: departmentKey }, order: { position: 'ASC' } });
  }

  namesInUse(): Promise<Set<string>> {
    return this.agents()
      .find({ select: { nameKey: true } })
      .then((rows) => new Set(rows.map((r) => r.nameKey)));
  }

  /** Names of agents whose model comes from `provider` (the first 20 by name). */
  async namesUsingProvider(provider: string): Promise<string[]> {
    const rows = await this.agents().find({
      select: { name: true },
      where: { modelProvider: provider },
      take: 20,
      order: { name: 'ASC' },
    });
    return rows.map((r) => r.name);
  }

  async nextPosition(tx?: Transaction): Promise<number> {
    const raw = await this.agents(tx)
      .createQueryBuilder('a')
      .select('MAX(a.position)', 'max')
      .getRawOne<{ max: number | string | null }>();
    return raw?.max === null || raw?.max === undefined ? 0 : Number(raw.max) + 1;
  }

  async insert(agent: AgentEntity, tx?: Transaction): Promise<void> {
    await this.agents(tx).insert(agent);
  }

  /** Applies `changes` whatever the row's version, bumping it. */
  async update(id: string, changes: Partial<AgentEntity>, tx?: Transaction): Promise<void> {
    await this.agents(tx).update({ id }, { ...changes, version: () => 'version + 1', updatedAt: new Date() });
  }

  /**
   * Compare-and-set: applies `changes` only while the row is still at `expectedVersion`, and moves it
   * to the next version. False when another write came first (or the agent is gone).
   */
  async updateAtVersion(
    id: string,
    expectedVersion: number,
    changes: Partial<AgentEntity>,
    tx?: Transaction,
  ): Promise<boolean> {
    const result = await this.agents(tx)
      .createQueryBuilder()
      .update(AgentEntity)
      .set({ ...changes, version: expectedVersion + 1, updatedAt: new Date() })
      .where('id = :id AND version = :version', { id, version: expectedVersion })
      .execute();
    return (result.affected ?? 0) === 1;
  }

  /** When the agent's newest career event happened, or null when it has none. */
  async lastEventAt(agentId: string, tx?: Transaction): Promise<Date | null> {
    const newest = await this.database
      .manager(tx)
      .getRepository(AgentLifecycleEventEntity)
      .findOne({ select: { timestamp: true }, where: { agentId }, order: { timestamp: 'DESC' } });
    return newest?.timestamp ?? null;
  }

  async insertEvents(events: AgentLifecycleEventEntity[], tx?: Transaction): Promise<void> {
    if (events.length > 0) {
      await this.database.manager(tx).getRepository(AgentLifecycleEventEntity).insert(events);
    }
  }

  /**
   * Writes a career event unless one with its id exists: a step that is repeated (an offboarding
   * resumed after a crash) writes its event once.
   */
  async insertEventIfMissing(event: AgentLifecycleEventEntity): Promise<void> {
    await this.database
      .manager()
      .getRepository(AgentLifecycleEventEntity)
      .createQueryBuilder()
      .insert()
      .values(event)
      .orIgnore()
      .execute();
  }

  /** Removes the whole roster and its career log. */
  async deleteAll(tx: Transaction): Promise<void> {
    const manager = this.database.manager(tx);
    await manager.getRepository(AgentLifecycleEventEntity).createQueryBuilder().delete().execute();
    await manager.getRepository(AgentEntity).createQueryBuilder().delete().execute();
  }

  /** Oldest first: a career reads forwards. */
  history(agentId: string, types: readonly string[]): Promise<AgentLifecycleEventEntity[]> {
    return this.events.find({
      where: { agentId, eventType: In([...types]) },
      order: { timestamp: 'ASC', id: 'ASC' },
      take: ACTIVITY_SOURCE_CAP,
    });
  }

  /** The feed's newest career events (see {@link newestRows}), of one type when `eventType` is given. */
  newestLifecycle(scope: LifecycleFeedScope, need: number): Promise<AgentLifecycleEventEntity[]> {
    return newestRows(this.lifecycleFeed(scope), need);
  }

  /** How many career events the feed holds, counting at most `cap`. */
  countLifecycle(scope: LifecycleFeedScope, cap: number): Promise<number> {
    return countNewest(this.lifecycleFeed(scope), cap);
  }

  private lifecycleFeed({ since, agentId, eventType }: LifecycleFeedScope): FeedSource<AgentLifecycleEventEntity> {
    return {
      repository: this.events,
      newestBy: 'timestamp',
      where: {
        ...(since ? { timestamp: MoreThanOrEqual(since) } : {}),
        ...(agentId ? { agentId } : {}),
        ...(eventType ? { eventType } : {}),
      },
    };
  }
}
