import { Injectable, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { Brackets, type EntityManager, In, type Repository } from 'typeorm';

import { Channel, type PageRequest, type TaskStatus } from '@app/domain';
import { CountCache, EntityStatements, POLLED_PAGE_RETAIN_MS, pagedQuery, TaskEntity } from '@app/persistence';
import { DatabaseService, EventBus, subscribeTo } from '@app/platform';

import { TASK_ROW_COLUMNS, type TaskRow } from './tasks.mapper';

export interface TaskFilter {
  status: TaskStatus | null;
  /**
   * The assignee as the client named it (an agent id or name), and the agent it resolved to on the
   * roster. Tasks match by the resolved agent's id, so a name matches whatever its letters' case
   * (the roster's name key is lowered in JavaScript, which, unlike SQL LOWER(), knows every
   * alphabet); the reference itself still matches an id, or a former agent's name case-insensitively
   * in the ASCII range.
   */
  assignedTo?: { ref: string; agentId?: string };
  project?: string;
}

/** Columns a compare-and-set write may change (id, created_by and version are not among them). */
export type TaskChanges = Partial<Omit<TaskEntity, 'id' | 'createdBy' | 'createdAt' | 'version'>>;

/**
 * The only TypeORM user for tasks. Every write is a compare-and-set on the persisted version.
 *
 * List totals are remembered per filter ({@link CountCache}) and forgotten after every write here
 * and on every task event, which is how another replica's writes become known (within the bus's
 * delivery time; the cache's time limit bounds a missed event).
 */
@Injectable()
export class TasksRepository implements OnModuleInit, OnModuleDestroy {
  private readonly counts = new CountCache({ retainMs: POLLED_PAGE_RETAIN_MS });
  private unsubscribe: (() => void) | null = null;

  constructor(
    private readonly database: DatabaseService,
    @Optional() private readonly bus?: EventBus,
  ) {}

  onModuleInit(): void {
    if (this.bus) {
      this.unsubscribe = subscribeTo(this.bus, Channel.Tasks, () => this.counts.invalidate());
    }
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  private repo(manager?: EntityManager): Repository<TaskEntity> {
    return (manager ?? this.database.dataSource.manager).getRepository(TaskEntity);
  }

  /** The engine's per-run reads and writes, without the query builder (see EntityStatements). */
  private get statements(): EntityStatements<TaskEntity> {
    return EntityStatements.for(this.database.dataSource, TaskEntity);
  }

  /** One page of the list as raw rows of the response's columns, oldest first, with the filter's total. */
  async page(filter: TaskFilter, page: PageRequest): Promise<{ items: TaskRow[]; total: number }> {
    const where: string[] = [];
    const params: Record<string, unknown> = {};
    if (filter.status) {
      where.push('status = :status');
      params.status = filter.status;
    }
    const assignee = filter.assignedTo;
    if (assignee) {
      where.push('(assignee_id IN (:...assigneeIds) OR LOWER(assigned_to) = :assignee)');
      params.assigneeIds = [assignee.ref, assignee.agentId ?? assignee.ref];
      params.assignee = assignee.ref.toLowerCase();
    }
    if (filter.project) {
      where.push('project = :project');
      params.project = filter.project;
    }
    const { rows, total } = await pagedQuery<TaskRow>({
      source: this.database.dataSource,
      table: 'tasks',
      columns: TASK_ROW_COLUMNS,
      where,
      params,
      orderBy: ['created_at ASC', 'id ASC'],
      offset: page.offset,
      limit: page.limit,
      counts: this.counts,
    });
    return { items: rows, total };
  }

  findById(id: string): Promise<TaskEntity | null> {
    return this.statements.findOne({ id });
  }

  async insert(row: TaskEntity): Promise<void> {
    await this.statements.insert(row);
    this.counts.invalidate();
  }

  /**
   * Applies `changes` only if the task is still at `base.version`; the version goes up by `steps`,
   * the number of changes the write stands for (a run's in_progress → in_review → completed is one
   * write of two steps, each announced at its own version). Answers the new row, or null when
   * another writer got there first.
   *
   * The new row is `base` with the changes applied, not a second read: every write to a task goes
   * through here and bumps the version, so a row still at `base.version` holds exactly `base`'s
   * values. The one exception is the run heartbeat ({@link heartbeat}), which moves
   * `runHeartbeatAt` without a version change; the answer carries the base's heartbeat then, and
   * only the recovery sweep, which reads the column itself, looks at it.
   */
  async compareAndSet(base: TaskEntity, changes: TaskChanges, steps = 1): Promise<TaskEntity | null> {
    const updatedAt = new Date();
    const bump = Math.max(1, Math.trunc(steps));
    const changed = await this.statements.update(
      { id: base.id, version: base.version },
      { ...changes, updatedAt },
      { increment: { version: bump } },
    );
    if (changed === 0) {
      return null;
    }
    this.counts.invalidate();
    return withChanges(base, changes, base.version + bump, updatedAt);
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.repo().delete({ id });
    this.counts.invalidate();
    return (result.affected ?? 0) > 0;
  }

  /** The tasks one agent holds in `statuses` (the assignee and status index), oldest first. */
  heldBy(agentId: string, statuses: readonly TaskStatus[], limit: number): Promise<TaskEntity[]> {
    return this.repo().find({
      where: { assigneeId: agentId, status: In([...statuses]) },
      order: { createdAt: 'ASC', id: 'ASC' },
      take: limit,
    });
  }

  /** Tasks waiting for a run: assigned, with an assignee. Oldest first. */
  waiting(limit: number): Promise<TaskEntity[]> {
    return this.repo().find({ where: { status: 'assigned' }, order: { updatedAt: 'ASC' }, take: limit });
  }

  /** The other run owners of tasks in progress (at most `limit`). */
  async runOwners(liveOwner: string, limit: number): Promise<string[]> {
    const rows = await this.repo()
      .createQueryBuilder('t')
      .select('DISTINCT t.run_owner', 'owner')
      .where("t.status = 'in_progress'")
      .andWhere('t.run_owner IS NOT NULL')
      .andWhere('t.run_owner <> :liveOwner', { liveOwner })
      .limit(limit)
      .getRawMany<{ owner: string }>();
    return rows.map((r) => r.owner);
  }

  /**
   * Tasks in progress with no run and no reason: no owner, no status reason (a run that stopped on
   * purpose — max turns, a budget limit, an approval — records why), untouched since `before`.
   */
  orphaned(before: Date, limit: number): Promise<TaskEntity[]> {
    return this.repo()
      .createQueryBuilder('t')
      .where("t.status = 'in_progress'")
      .andWhere('t.run_owner IS NULL')
      .andWhere('t.status_reason IS NULL')
      .andWhere('t.updated_at < :before', { before })
      .orderBy('t.updated_at', 'ASC')
      .take(limit)
      .getMany();
  }

  /**
   * Tasks a dead process left behind: in progress under another owner whose heartbeat is older
   * than `staleBefore` (or missing), and, with `includeInterrupted`, every interrupted task.
   * A run that stopped on purpose (max turns, budget) leaves no owner and is not picked up.
   */
  abandoned(
    staleBefore: Date,
    limit: number,
    liveOwner: string,
    includeInterrupted: boolean,
    owners?: readonly string[],
  ): Promise<TaskEntity[]> {
    const query = this.repo()
      .createQueryBuilder('t')
      .where(
        new Brackets((q) => {
          q.where(
            new Brackets((running) =>
              running
                .where("t.status = 'in_progress'")
                .andWhere('t.run_owner IS NOT NULL')
                .andWhere('t.run_owner <> :liveOwner', { liveOwner })
                .andWhere(ownedBy(owners))
                .andWhere(
                  new Brackets((stale) =>
                    stale
                      .where('t.run_heartbeat_at IS NULL')
                      .orWhere('t.run_heartbeat_at < :staleBefore', { staleBefore }),
                  ),
                ),
            ),
          );
          if (includeInterrupted) {
            q.orWhere("t.status = 'interrupted'");
          }
        }),
      );
    return query.orderBy('t.updated_at', 'ASC').take(limit).getMany();
  }

  /** Proves this replica is still working on its tasks (no version change: it is not a task edit). */
  async heartbeat(ids: readonly string[], owner: string, at: Date): Promise<void> {
    if (ids.length > 0) {
      await this.repo().update({ id: In([...ids]), runOwner: owner }, { runHeartbeatAt: at });
    }
  }

  /** How many tasks are in each status that has any (one grouped count over the status index). */
  async countsByStatus(): Promise<Map<string, number>> {
    const rows = await this.repo()
      .createQueryBuilder('t')
      .select('t.status', 'status')
      .addSelect('COUNT(*)', 'n')
      .groupBy('t.status')
      .getRawMany<{ status: string; n: number | string }>();
    return new Map(rows.map((row) => [row.status, Number(row.n)]));
  }

  /** The distinct agent ids assigned to tasks in `status`. */
  async assigneesIn(status: TaskStatus): Promise<string[]> {
    const rows = await this.repo()
      .createQueryBuilder('t')
      .select('DISTINCT t.assignee_id', 'id')
      .where('t.status = :status', { status })
      .andWhere('t.assignee_id IS NOT NULL')
      .getRawMany<{ id: string }>();
    return rows.map((row) => row.id);
  }

  /** How many tasks in `statuses` each assignee holds (one grouped count). */
  async countsByAssignee(statuses: readonly TaskStatus[]): Promise<Map<string, number>> {
    const rows = await this.repo()
      .createQueryBuilder('t')
      .select('t.assignee_id', 'id')
      .addSelect('COUNT(*)', 'n')
      .where('t.status IN (:...statuses)', { statuses: [...statuses] })
      .andWhere('t.assignee_id IS NOT NULL')
      .groupBy('t.assignee_id')
      .getRawMany<{ id: string; n: number | string }>();
    return new Map(rows.map((row) => [row.id, Number(row.n)]));
  }

  countByStatus(status: TaskStatus): Promise<number> {
    return this.repo().countBy({ status });
  }
}

/**
 * `base` as a write of `changes` leaves it, at `version`: a copy, with the changes' values cloned.
 * A change whose value is undefined leaves its column alone, as TypeORM does.
 */
export function withChanges(base: TaskEntity, changes: TaskChanges, version: number, updatedAt: Date): TaskEntity {
  const row: TaskEntity = { ...base, version, updatedAt };
  for (const [key, value] of Object.entries(structuredClone(changes))) {
    if (value !== undefined) {
      (row as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return row;
}

/** Restricts a query to these run owners (none: every owner). */
function ownedBy(owners: readonly string[] | undefined): Brackets {
  return new Brackets((q) => {
    if (owners === undefined) {
      q.where('1 = 1');
    } else if (owners.length === 0) {
      q.where('1 = 0');
    } else {
      q.where('t.run_owner IN (:...owners)', { owners: [...owners] });
    }
  });
}
