import { ConflictError, ErrorCode, NotFoundError } from '@app/domain';
import type { TaskEntity } from '@app/persistence';
import { actorContext, agentRow, makeServiceUnderTest, rawRowOf, taskRow } from '@app/testing';

import { AgentRoster } from '../agents';
import { ProjectsService } from '../company';
import { ProviderRegistry, type RegisteredProvider } from '../providers';
import type { CreateTaskDto, TaskQueryDto } from './dto/task.dto';
import { TaskLifecycle } from './task-lifecycle';
import type { TaskRow } from './tasks.mapper';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';

const ACTOR = actorContext();
const ADA = agentRow({ name: 'Ada Lovelace' });
// The service only asks whether any provider is registered, never what it holds.
const ONE_PROVIDER = [{} as RegisteredProvider];

function build() {
  const unit = makeServiceUnderTest(TasksService);
  return {
    sut: unit.sut,
    tasks: unit.mock(TasksRepository),
    lifecycle: unit.mock(TaskLifecycle),
    agents: unit.mock(AgentRoster),
    projects: unit.mock(ProjectsService),
    registry: unit.mock(ProviderRegistry),
  };
}

/** A service with one provider registered, project `Apollo` resolving to `proj-apollo`, and inserts echoed. */
function buildReady() {
  const unit = build();
  unit.registry.list.mockReturnValue(ONE_PROVIDER);
  unit.projects.resolveId.mockResolvedValue('proj-apollo');
  unit.lifecycle.create.mockImplementation((row: TaskEntity) => Promise.resolve(row));
  return unit;
}

function createDto(overrides: Partial<CreateTaskDto> = {}): CreateTaskDto {
  return {
    title: 'Write the spec',
    description: 'All of it.',
    type: 'development',
    project: 'Apollo',
    created_by: 'alice',
    ...overrides,
  };
}

function query(filter: Omit<Partial<TaskQueryDto>, 'offset' | 'limit'> = {}): TaskQueryDto {
  return { offset: 0, limit: 50, ...filter };
}

describe(TasksService.name, () => {
  describe('create', () => {
    it('should refuse with 4014 when no provider is registered', async () => {
      const { sut, registry } = build();
      registry.list.mockReturnValue([]);

      await expect(sut.create(ACTOR, createDto())).rejects.toMatchObject({ code: ErrorCode.AgentRuntimeNotConfigured });
    });

    it('should create a task in status created with the documented defaults when only required fields are given', async () => {
      const { sut, lifecycle } = buildReady();

      const task = await sut.create(ACTOR, createDto({ title: '  Write the spec  ' }));

      expect(task).toMatchObject({
        title: 'Write the spec',
        status: 'created',
        project: 'proj-apollo',
        created_by: 'alice',
        assigned_to: null,
        priority: 'medium',
        estimated_complexity: 'medium',
        budget_limit: 0,
        max_retries: 1,
        retry_count: 0,
        deadline: null,
        coordination_topology: 'auto',
        version: 1,
      });
      expect(task.id).toMatch(/\S/);
      expect(lifecycle.create).toHaveBeenCalledWith(expect.objectContaining({ id: task.id }), 'alice');
      expect(lifecycle.transition).not.toHaveBeenCalled();
    });

    it('should create and then assign in a second move when assigned_to names an active agent', async () => {
      const { sut, lifecycle, agents } = buildReady();
      agents.findByRef.mockResolvedValue(ADA);
      lifecycle.transition.mockImplementation((id, status, options) =>
        Promise.resolve(taskRow({ id, status, version: 2, ...options.changes?.(taskRow({ id })) })),
      );

      const task = await sut.create(ACTOR, createDto({ assigned_to: 'Ada Lovelace' }));

      expect(task).toMatchObject({ status: 'assigned', assigned_to: 'Ada Lovelace', version: 2 });
      const [id, target, options] = lifecycle.transition.mock.calls[0];
      expect([id, target, options.by, options.expectedVersion]).toEqual([task.id, 'assigned', 'alice', 1]);
      expect(options.changes?.(taskRow())).toEqual({ assignedTo: 'Ada Lovelace', assigneeId: ADA.id });
    });

    it('should refuse with 3013 before inserting when the assignee is not on the roster', async () => {
      const { sut, lifecycle, agents } = buildReady();
      agents.findByRef.mockResolvedValue(null);

      await expect(sut.create(ACTOR, createDto({ assigned_to: 'Nobody' }))).rejects.toMatchObject({
        code: ErrorCode.AgentNotFound,
      });
      expect(lifecycle.create).not.toHaveBeenCalled();
    });

    it('should refuse with 4018 when the assignee is terminated', async () => {
      const { sut, agents } = buildReady();
      agents.findByRef.mockResolvedValue(agentRow({ status: 'terminated' }));

      const error = await sut.create(ACTOR, createDto({ assigned_to: 'Ada Lovelace' })).catch((e: unknown) => e);

      expect(error).toBeInstanceOf(ConflictError);
      expect(error).toMatchObject({ code: ErrorCode.AgentNotAvailable });
    });

    it('should pass on the 3003 of the project lookup when the project is unknown', async () => {
      const { sut, projects, registry, lifecycle } = build();
      registry.list.mockReturnValue(ONE_PROVIDER);
      projects.resolveId.mockRejectedValue(new NotFoundError('no project', ErrorCode.ProjectNotFound));

      await expect(sut.create(ACTOR, createDto({ project: 'ghost' }))).rejects.toMatchObject({
        code: ErrorCode.ProjectNotFound,
      });
      expect(lifecycle.create).not.toHaveBeenCalled();
    });

    it.each([
      ['a blank title', { title: '   ' }],
      ['a blank description', { description: '' }],
      ['a blank created_by', { created_by: ' ' }],
      ['a blank acceptance criterion', { acceptance_criteria: [{ description: ' ' }] }],
      ['an impossible deadline', { deadline: '2026-02-30' }],
      ['a deadline without an offset', { deadline: '2026-12-01T17:00:00' }],
      ['a blank reviewer', { reviewers: [''] }],
    ])('should refuse with 2001 when the request has %s', async (_, overrides: Partial<CreateTaskDto>) => {
      const { sut, lifecycle } = buildReady();

      await expect(sut.create(ACTOR, createDto(overrides))).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(lifecycle.create).not.toHaveBeenCalled();
    });

    it('should deduplicate references and normalise the deadline to UTC when they are given', async () => {
      const { sut } = buildReady();

      const task = await sut.create(
        ACTOR,
        createDto({
          reviewers: ['bob', ' bob ', 'carol'],
          dependencies: ['task-a', 'task-a'],
          deadline: '2026-12-01T18:00:00+01:00',
          acceptance_criteria: [{ description: ' Tests pass ' }],
        }),
      );

      expect(task).toMatchObject({
        reviewers: ['bob', 'carol'],
        dependencies: ['task-a'],
        deadline: '2026-12-01T17:00:00.000Z',
        acceptance_criteria: [{ description: 'Tests pass', met: false }],
      });
    });

    it('should keep created_by as given when the caller creates on behalf of someone else', async () => {
      const { sut } = buildReady();

      const task = await sut.create(ACTOR, createDto({ created_by: 'bob' }));

      expect(task.created_by).toBe('bob');
    });
  });

  describe('list', () => {
    it('should list created tasks by default when no status filter is given', async () => {
      const { sut, tasks } = build();
      tasks.page.mockResolvedValue({ items: [rawRowOf<TaskRow>(taskRow())], total: 7 });

      const page = await sut.list(query(), { offset: 0, limit: 1 });

      expect(tasks.page).toHaveBeenCalledWith(
        { status: 'created', assignedTo: undefined, project: undefined },
        { offset: 0, limit: 1 },
      );
      expect(page).toMatchObject({ total: 7, offset: 0, limit: 1 });
      expect(JSON.parse(page.items.toString())).toMatchObject([{ id: 'task-1' }]);
    });

    it('should filter by the agent id and the stored name when the assignee is on the roster', async () => {
      const { sut, tasks, agents } = build();
      agents.findByRef.mockResolvedValue(ADA);
      tasks.page.mockResolvedValue({ items: [], total: 0 });

      await sut.list(query({ status: '', assigned_to: 'ada lovelace', project: 'proj-1' }), { offset: 0, limit: 50 });

      expect(tasks.page).toHaveBeenCalledWith(
        { status: null, assignedTo: { ref: 'ada lovelace', agentId: ADA.id }, project: 'proj-1' },
        { offset: 0, limit: 50 },
      );
    });

    it('should refuse with 2001 when the status filter is not a task status', async () => {
      const { sut } = build();

      await expect(sut.list(query({ status: 'sleeping' }), { offset: 0, limit: 50 })).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
    });
  });

  describe('get', () => {
    it('should pass on the 3004 of the lifecycle when the task is unknown', async () => {
      const { sut, lifecycle } = build();
      lifecycle.getOrThrow.mockRejectedValue(new NotFoundError('no task', ErrorCode.TaskNotFound));

      await expect(sut.get('task-x')).rejects.toMatchObject({ code: ErrorCode.TaskNotFound });
    });
  });

  describe('update', () => {
    it('should send only the given fields, trimmed, with the expected version when they are edited', async () => {
      const { sut, lifecycle } = build();
      lifecycle.update.mockResolvedValue(taskRow({ title: 'New', version: 2 }));

      const task = await sut.update(ACTOR, 'task-1', { title: ' New ', budget_limit: 5, expected_version: 1 });

      expect(task).toMatchObject({ title: 'New', version: 2 });
      const [id, compute, options] = lifecycle.update.mock.calls[0];
      expect(id).toBe('task-1');
      expect(compute(taskRow())).toEqual({ title: 'New', budgetLimit: 5 });
      expect(options).toEqual({ by: 'alice', expectedVersion: 1 });
    });

    it('should pass on the 4003 of the lifecycle when the expected version is stale', async () => {
      const { sut, lifecycle } = build();
      lifecycle.update.mockRejectedValue(new ConflictError('stale', ErrorCode.TaskVersionConflict));

      await expect(sut.update(ACTOR, 'task-1', { priority: 'high', expected_version: 9 })).rejects.toMatchObject({
        code: ErrorCode.TaskVersionConflict,
      });
    });

    it('should refuse with 2001 when the new title is blank', async () => {
      const { sut, lifecycle } = build();

      await expect(sut.update(ACTOR, 'task-1', { title: ' ' })).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(lifecycle.update).not.toHaveBeenCalled();
    });
  });

  describe('transition', () => {
    it('should refuse with 2001 when the target is not a task status', async () => {
      const { sut, lifecycle } = build();

      await expect(sut.transition(ACTOR, 'task-1', { target_status: 'done' })).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(lifecycle.transition).not.toHaveBeenCalled();
    });

    it('should set the assignee and clear the status reason when the target is assigned', async () => {
      const { sut, lifecycle, agents } = build();
      agents.findByRef.mockResolvedValue(ADA);
      lifecycle.transition.mockResolvedValue(taskRow({ status: 'assigned', version: 2 }));

      await sut.transition(ACTOR, 'task-1', { target_status: 'assigned', assigned_to: 'Ada', expected_version: 1 });

      const [, target, options] = lifecycle.transition.mock.calls[0];
      expect(target).toBe('assigned');
      expect(options).toMatchObject({ by: 'alice', expectedVersion: 1 });
      expect(options.changes?.(taskRow())).toEqual({ assignedTo: ADA.name, assigneeId: ADA.id, statusReason: null });
    });

    it('should pass on the 4015 of the state machine when the move is illegal', async () => {
      const { sut, lifecycle } = build();
      lifecycle.transition.mockRejectedValue(new ConflictError('illegal', ErrorCode.InvalidTaskTransition));

      await expect(sut.transition(ACTOR, 'task-1', { target_status: 'completed' })).rejects.toMatchObject({
        code: ErrorCode.InvalidTaskTransition,
      });
    });
  });

  describe('cancel', () => {
    it('should cancel with the trimmed reason and a completion time when a reason is given', async () => {
      const { sut, lifecycle } = build();
      lifecycle.transition.mockResolvedValue(taskRow({ status: 'cancelled', statusReason: 'Obsolete' }));

      const task = await sut.cancel(ACTOR, 'task-1', { reason: ' Obsolete ' });

      expect(task).toMatchObject({ status: 'cancelled', status_reason: 'Obsolete' });
      const [id, target, options] = lifecycle.transition.mock.calls[0];
      expect([id, target, options.by]).toEqual(['task-1', 'cancelled', 'alice']);
      expect(options.changes?.(taskRow())).toEqual({ statusReason: 'Obsolete', completedAt: expect.any(Date) });
    });

    it('should refuse with 2001 when the reason is blank', async () => {
      const { sut, lifecycle } = build();

      await expect(sut.cancel(ACTOR, 'task-1', { reason: '  ' })).rejects.toMatchObject({
        code: ErrorCode.RequestValidationError,
      });
      expect(lifecycle.transition).not.toHaveBeenCalled();
    });

    it('should pass on the 4016 of the lifecycle when the task is already terminal', async () => {
      const { sut, lifecycle } = build();
      lifecycle.transition.mockRejectedValue(new ConflictError('terminal', ErrorCode.TaskAlreadyTerminal));

      await expect(sut.cancel(ACTOR, 'task-1', { reason: 'again' })).rejects.toMatchObject({
        code: ErrorCode.TaskAlreadyTerminal,
      });
    });
  });

  describe('delete', () => {
    it('should delete through the lifecycle in the caller name when asked', async () => {
      const { sut, lifecycle } = build();
      lifecycle.delete.mockResolvedValue();

      await sut.delete(ACTOR, 'task-1');

      expect(lifecycle.delete).toHaveBeenCalledWith('task-1', 'alice');
    });
  });
});
