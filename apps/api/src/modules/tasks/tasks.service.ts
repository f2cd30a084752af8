import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  AgentRuntimeNotConfiguredError,
  ConflictError,
  ErrorCode,
  newTaskId,
  NotFoundError,
  RenderedPage,
  type PageRequest,
  parseDeadline,
  parseTaskStatus,
  parseTaskStatusFilter,
  requireText,
  uniqueRefs,
} from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { ProjectsService } from '../company';
import { ProviderRegistry } from '../providers';
import type {
  CancelTaskDto,
  CreateTaskDto,
  TaskDto,
  TaskQueryDto,
  TransitionTaskDto,
  UpdateTaskDto,
} from './dto/task.dto';
import { newTaskRow } from './new-task-row';
import { TaskLifecycle } from './task-lifecycle';
import { toTaskDto, toTaskDtoFromRow } from './tasks.mapper';
import type { TaskChanges } from './tasks.repository';
import { TasksRepository } from './tasks.repository';

/** The tasks API: create, read, edit, move through the state machine, cancel, delete. */
@Injectable()
export class TasksService {
  private readonly log: Logger;

  constructor(
    private readonly tasks: TasksRepository,
    private readonly lifecycle: TaskLifecycle,
    private readonly agents: AgentRoster,
    private readonly projects: ProjectsService,
    private readonly registry: ProviderRegistry,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.tasks');
  }

  /** A page of tasks as JSON text (pages read at once by several requests are read and rendered once). */
  async list(query: TaskQueryDto, page: PageRequest): Promise<RenderedPage> {
    const status = parseTaskStatusFilter(query.status);
    const ref = query.assigned_to || undefined;
    const assignedTo = ref === undefined ? undefined : { ref, agentId: (await this.agents.findByRef(ref))?.id };
    const { items, total } = await this.tasks.page({ status, assignedTo, project: query.project || undefined }, page);
    return RenderedPage.of(items, toTaskDtoFromRow, total, page);
  }

  async get(id: string): Promise<TaskDto> {
    return toTaskDto(await this.lifecycle.getOrThrow(id));
  }

  /**
   * A new task is `created`; with `assigned_to` it is then assigned in a second, published move, which
   * the lifecycle hands to the engine for a run (RunDispatch).
   */
  async create(actor: ActorContext, dto: CreateTaskDto): Promise<TaskDto> {
    if (this.registry.list().length === 0) {
      throw new AgentRuntimeNotConfiguredError();
    }
    const id = newTaskId();
    const project = await this.projects.resolveId(dto.project);
    const assignee =
      dto.assigned_to === undefined || dto.assigned_to === null ? null : await this.assignable(dto.assigned_to);
    const createdBy = requireText('created_by', dto.created_by);
    if (createdBy.toLowerCase() !== actor.username.toLowerCase()) {
      this.log.info({ task_id: id, created_by: createdBy, actor: actor.username }, 'engine.task.created_on_behalf');
    }
    const row = newTaskRow({
      id,
      title: requireText('title', dto.title),
      description: requireText('description', dto.description),
      type: dto.type,
      priority: dto.priority,
      project,
      createdBy,
      reviewers: uniqueRefs('reviewers', dto.reviewers),
      dependencies: uniqueRefs('dependencies', dto.dependencies, id),
      acceptanceCriteria: (dto.acceptance_criteria ?? []).map((c) => ({
        description: requireText('acceptance_criteria.description', c.description),
        met: c.met ?? false,
      })),
      estimatedComplexity: dto.estimated_complexity,
      budgetLimit: dto.budget_limit,
      deadline: parseDeadline(dto.deadline),
      maxRetries: dto.max_retries,
      parentTaskId: dto.parent_task_id,
    });
    await this.lifecycle.create(row, actor.username);
    if (!assignee) {
      return toTaskDto(row);
    }
    const assigned = await this.lifecycle.transition(id, 'assigned', {
      by: actor.username,
      expectedVersion: row.version,
      changes: () => assigneeChanges(assignee),
    });
    return toTaskDto(assigned);
  }

  async update(actor: ActorContext, id: string, dto: UpdateTaskDto): Promise<TaskDto> {
    const assignee = await this.assigneeChange(dto.assigned_to);
    const changes: TaskChanges = {
      ...(dto.title !== undefined ? { title: requireText('title', dto.title) } : {}),
      ...(dto.description !== undefined ? { description: requireText('description', dto.description) } : {}),
      ...(dto.priority !== undefined ? { priority: dto.priority } : {}),
      ...(dto.budget_limit !== undefined ? { budgetLimit: dto.budget_limit } : {}),
      ...assignee,
    };
    const saved = await this.lifecycle.update(id, () => changes, {
      by: actor.username,
      expectedVersion: dto.expected_version ?? undefined,
    });
    return toTaskDto(saved);
  }

  async transition(actor: ActorContext, id: string, dto: TransitionTaskDto): Promise<TaskDto> {
    const target = parseTaskStatus(dto.target_status);
    const assignee = await this.assigneeChange(dto.assigned_to);
    const saved = await this.lifecycle.transition(id, target, {
      by: actor.username,
      expectedVersion: dto.expected_version ?? undefined,
      changes: () => ({
        ...assignee,
        ...(target === 'assigned' ? { statusReason: null } : {}),
      }),
    });
    return toTaskDto(saved);
  }

  async cancel(actor: ActorContext, id: string, dto: CancelTaskDto): Promise<TaskDto> {
    const reason = requireText('reason', dto.reason);
    const saved = await this.lifecycle.transition(id, 'cancelled', {
      by: actor.username,
      changes: () => ({ statusReason: reason, completedAt: new Date() }),
    });
    return toTaskDto(saved);
  }

  delete(actor: ActorContext, id: string): Promise<void> {
    return this.lifecycle.delete(id, actor.username);
  }

  /**
   * The assignee columns a write sets: none when `assigned_to` is absent, cleared when it is null
   * (the state machine's assignment invariant then decides whether that is allowed).
   */
  private async assigneeChange(ref: string | null | undefined): Promise<TaskChanges> {
    if (ref === undefined) {
      return {};
    }
    return ref === null ? { assignedTo: null, assigneeId: null } : assigneeChanges(await this.assignable(ref));
  }

  /** An agent that can take work: on the roster and not terminated. */
  private async assignable(ref: string): Promise<AgentEntity> {
    const agent = await this.agents.findByRef(requireText('assigned_to', ref));
    if (!agent) {
      throw new NotFoundError(`assigned_to: no agent "${ref}" on the roster`, ErrorCode.AgentNotFound);
    }
    if (agent.status === 'terminated') {
      throw new ConflictError(`Agent "${agent.name}" is terminated and cannot take tasks`, ErrorCode.AgentNotAvailable);
    }
    return agent;
  }
}

function assigneeChanges(agent: AgentEntity): TaskChanges {
  return { assignedTo: agent.name, assigneeId: agent.id };
}
