import { Injectable } from '@nestjs/common';
import type { Repository } from 'typeorm';

import { type JsonObject, TaskEntity, ToolInvocationEntity, ToolServerEntity } from '@app/persistence';
import { DatabaseService } from '@app/platform';

/** The only TypeORM user for tool servers (and the reader of a run's recorded server calls). */
@Injectable()
export class ToolServersRepository {
  constructor(private readonly database: DatabaseService) {}

  private repo(): Repository<ToolServerEntity> {
    return this.database.manager().getRepository(ToolServerEntity);
  }

  all(): Promise<ToolServerEntity[]> {
    return this.repo().find({ order: { name: 'ASC' } });
  }

  async page(offset: number, limit: number): Promise<{ items: ToolServerEntity[]; total: number }> {
    const [items, total] = await this.repo().findAndCount({ order: { name: 'ASC' }, skip: offset, take: limit });
    return { items, total };
  }

  findByName(name: string): Promise<ToolServerEntity | null> {
    return this.repo().findOneBy({ name });
  }

  async insert(entity: ToolServerEntity): Promise<void> {
    await this.repo().insert(entity);
  }

  /** Compare-and-set on the version: false when another writer got there first. */
  async update(entity: ToolServerEntity, expectedVersion: number): Promise<boolean> {
    const { name, ...fields } = entity;
    const result = await this.repo().update({ name, version: expectedVersion }, fields);
    return (result.affected ?? 0) > 0;
  }

  /** Stores a fresh tool listing; the configuration's version is left alone (a listing is not an edit). */
  async saveTools(name: string, tools: JsonObject[], listedAt: Date): Promise<void> {
    await this.repo().update({ name }, { tools, toolsListedAt: listedAt });
  }

  /**
   * The tool-server calls (names holding `__`) a task's current run recorded since it claimed the
   * task; 0 when the task has no run.
   */
  async serverCallsOfRun(taskId: string): Promise<number> {
    const manager = this.database.manager();
    const task = await manager
      .getRepository(TaskEntity)
      .findOne({ where: { id: taskId }, select: { runStartedAt: true } });
    if (!task?.runStartedAt) {
      return 0;
    }
    return manager
      .getRepository(ToolInvocationEntity)
      .createQueryBuilder('i')
      .where('i.taskId = :taskId', { taskId })
      .andWhere('i.timestamp >= :since', { since: task.runStartedAt })
      .andWhere("i.toolName LIKE :pattern ESCAPE '!'", { pattern: '%!_!_%' })
      .getCount();
  }

  async delete(name: string): Promise<boolean> {
    const result = await this.repo().delete({ name });
    return (result.affected ?? 0) > 0;
  }
}
