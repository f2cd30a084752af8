// tasks list|show|create|update|transition|cancel|delete|coordinate
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { commaList, type Context, integer, number, paging, unwrap, unwrapPage } from '../context';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';

type Task = Schemas['Task'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

export const TASK_COLUMNS: Column<Task>[] = [
  { header: 'ID', value: (t) => t.id },
  { header: 'TITLE', value: (t) => t.title },
  { header: 'STATUS', value: (t) => t.status, tone: true },
  { header: 'PRIORITY', value: (t) => t.priority },
  { header: 'ASSIGNEE', value: (t) => t.assigned_to },
  { header: 'PROJECT', value: (t) => t.project },
  { header: 'UPDATED', value: (t) => t.updated_at },
];

async function list(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const query = {
    ...paging(flags),
    ...(str(flags.status) ? { status: str(flags.status) } : {}),
    ...(str(flags.assignedTo) ? { assigned_to: str(flags.assignedTo) } : {}),
    ...(str(flags.project) ? { project: str(flags.project) } : {}),
  };
  const page = await unwrapPage(ctx.client.GET('/api/v1/tasks', { params: { query: query as never } }));
  ctx.list(page.items, TASK_COLUMNS, (t) => t.id, page.total);
}

async function show(ctx: Context, [id]: string[]): Promise<void> {
  const task = await unwrap(ctx.client.GET('/api/v1/tasks/{task_id}', { params: { path: { task_id: id } } }));
  ctx.show(task, (t: Task) => t.id);
}

async function whoAmI(ctx: Context): Promise<string> {
  return (await unwrap(ctx.client.GET('/api/v1/auth/me'))).username;
}

async function create(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const body = {
    title: str(flags.title) as string,
    description: str(flags.description) ?? str(flags.title),
    type: str(flags.type) as string,
    project: str(flags.project) as string,
    created_by: str(flags.createdBy) ?? (await whoAmI(ctx)),
    ...(str(flags.assignedTo) ? { assigned_to: str(flags.assignedTo) } : {}),
    ...(str(flags.priority) ? { priority: str(flags.priority) } : {}),
    ...(str(flags.complexity) ? { estimated_complexity: str(flags.complexity) } : {}),
    ...(str(flags.budgetLimit) ? { budget_limit: number(str(flags.budgetLimit) as string, '--budget-limit') } : {}),
    ...(str(flags.deadline) ? { deadline: str(flags.deadline) } : {}),
    ...(str(flags.parent) ? { parent_task_id: str(flags.parent) } : {}),
    ...(str(flags.maxRetries) ? { max_retries: integer(str(flags.maxRetries) as string, '--max-retries') } : {}),
    ...(flags.dependsOn ? { dependencies: commaList(str(flags.dependsOn)) } : {}),
    ...(flags.reviewers ? { reviewers: commaList(str(flags.reviewers)) } : {}),
  };
  const task = await unwrap(ctx.client.POST('/api/v1/tasks', { body: body as never }));
  ctx.done(`Created task ${task.id} (${task.status}).`, task, task.id);
}

async function update(ctx: Context, [id]: string[], flags: Flags): Promise<void> {
  const body = {
    ...(str(flags.title) ? { title: str(flags.title) } : {}),
    ...(str(flags.description) ? { description: str(flags.description) } : {}),
    ...(str(flags.priority) ? { priority: str(flags.priority) } : {}),
    ...(flags.unassign ? { assigned_to: null } : str(flags.assignedTo) ? { assigned_to: str(flags.assignedTo) } : {}),
    ...(str(flags.budgetLimit) ? { budget_limit: number(str(flags.budgetLimit) as string, '--budget-limit') } : {}),
    ...(str(flags.expectedVersion)
      ? { expected_version: integer(str(flags.expectedVersion) as string, '--expected-version') }
      : {}),
  };
  const task = await unwrap(
    ctx.client.PATCH('/api/v1/tasks/{task_id}', { params: { path: { task_id: id } }, body: body as never }),
  );
  ctx.done(`Updated task ${task.id} (version ${task.version}).`, task, task.id);
}

async function transition(ctx: Context, [id, target]: string[], flags: Flags): Promise<void> {
  const body = {
    target_status: target,
    ...(str(flags.assignedTo) ? { assigned_to: str(flags.assignedTo) } : {}),
    ...(str(flags.expectedVersion)
      ? { expected_version: integer(str(flags.expectedVersion) as string, '--expected-version') }
      : {}),
  };
  const task = await unwrap(
    ctx.client.POST('/api/v1/tasks/{task_id}/transition', { params: { path: { task_id: id } }, body: body as never }),
  );
  ctx.done(`Task ${task.id} is now ${task.status}.`, task, task.id);
}

async function cancel(ctx: Context, [id]: string[], flags: Flags): Promise<void> {
  const task = await unwrap(
    ctx.client.POST('/api/v1/tasks/{task_id}/cancel', {
      params: { path: { task_id: id } },
      body: { reason: str(flags.reason) as string },
    }),
  );
  ctx.done(`Cancelled task ${task.id}.`, task, task.id);
}

async function remove(ctx: Context, [id]: string[]): Promise<void> {
  await unwrap(ctx.client.DELETE('/api/v1/tasks/{task_id}', { params: { path: { task_id: id } } }));
  ctx.done(`Deleted task ${id}.`, { id, deleted: true }, id);
}

async function coordinate(ctx: Context, [id]: string[], flags: Flags): Promise<void> {
  const body = {
    ...(flags.agents ? { agent_names: commaList(str(flags.agents)) } : {}),
    ...(str(flags.maxSubtasks) ? { max_subtasks: integer(str(flags.maxSubtasks) as string, '--max-subtasks', 1) } : {}),
    ...(str(flags.maxConcurrency)
      ? { max_concurrency_per_wave: integer(str(flags.maxConcurrency) as string, '--max-concurrency', 1) }
      : {}),
    ...(flags.failFast ? { fail_fast: true } : {}),
  };
  const result = await ctx.progress(`Coordinating task ${id}`, () =>
    unwrap(
      ctx.client.POST('/api/v1/tasks/{task_id}/coordinate', { params: { path: { task_id: id } }, body: body as never }),
    ),
  );
  ctx.show(result, (r: { parent_task_id?: string }) => r.parent_task_id ?? id);
}

const listFlags = (command: Command): Command =>
  command
    .option('--limit <n>', 'items per page (1-200, default 50)')
    .option('--offset <n>', 'items to skip (default 0)');

export function registerTasks(program: Command, r: Registry): void {
  const tasks = program.command('tasks').description('create, follow and move tasks');
  listFlags(
    tasks
      .command('list')
      .description("tasks filtered by status (the API's default: created), assignee and project")
      .option(
        '--status <status>',
        'created, assigned, in_progress, in_review, completed, blocked, failed, interrupted, cancelled',
      )
      .option('--assigned-to <agent>', 'assignee (agent name)')
      .option('--project <id>', 'project id'),
  ).action(r.action(list));
  tasks.command('show').description('one task').argument('<id>', 'task id').action(r.action(show));
  tasks
    .command('create')
    .description('create a task (assigned: the engine runs it)')
    .requiredOption('--title <text>', 'title')
    .requiredOption('--type <type>', 'development, design, research, review, meeting, admin, analysis')
    .requiredOption('--project <id>', 'project id')
    .option('--description <text>', 'description (default: the title)')
    .option('--assigned-to <agent>', 'assign to this agent')
    .option('--created-by <name>', 'creator (default: the signed-in account)')
    .option('--priority <p>', 'critical, high, medium, low')
    .option('--complexity <c>', 'simple, medium, complex, epic')
    .option('--budget-limit <usd>', 'spending limit of the task')
    .option('--deadline <iso>', 'deadline (ISO 8601)')
    .option('--parent <id>', 'parent task id')
    .option('--depends-on <ids>', 'comma-separated ids of tasks it depends on')
    .option('--reviewers <names>', 'comma-separated reviewer names')
    .option('--max-retries <n>', 'retries of a failed run')
    .action(r.action(create));
  tasks
    .command('update')
    .description('edit a task (with --expected-version: only if unchanged since)')
    .argument('<id>', 'task id')
    .option('--title <text>', 'new title')
    .option('--description <text>', 'new description')
    .option('--priority <p>', 'critical, high, medium, low')
    .option('--assigned-to <agent>', 'new assignee')
    .option('--unassign', 'remove the assignee')
    .option('--budget-limit <usd>', 'new spending limit')
    .option('--expected-version <n>', 'refuse (exit 5) unless the task is at this version')
    .action(r.action(update));
  tasks
    .command('transition')
    .description('move a task through its state machine (an illegal move exits 5)')
    .argument('<id>', 'task id')
    .argument('<status>', 'target status')
    .option('--assigned-to <agent>', 'assignee, when moving to assigned')
    .option('--expected-version <n>', 'refuse (exit 5) unless the task is at this version')
    .action(r.action(transition));
  tasks
    .command('cancel')
    .description('cancel a task')
    .argument('<id>', 'task id')
    .requiredOption('--reason <text>', 'why')
    .action(r.action(cancel));
  tasks.command('delete').description('delete a task').argument('<id>', 'task id').action(r.action(remove));
  tasks
    .command('coordinate')
    .description('decompose a task and route its subtasks to agents, in waves')
    .argument('<id>', 'task id')
    .option('--agents <names>', 'comma-separated agent names to route to (default: all)')
    .option('--max-subtasks <n>', 'at most this many subtasks')
    .option('--max-concurrency <n>', 'subtasks run at once per wave')
    .option('--fail-fast', 'stop at the first failed subtask')
    .action(r.action(coordinate));
}

export { listFlags };
