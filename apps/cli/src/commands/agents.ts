// agents list|show|activity|performance|fire, agents autonomy get|set
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, paging, unwrap, unwrapPage } from '../context';
import { usage } from '../errors';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';

type Agent = Schemas['AgentConfig'];
type Activity = Schemas['ActivityEvent'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const path = (name: string) => ({ params: { path: { agent_name: name } } });

const COLUMNS: Column<Agent>[] = [
  { header: 'NAME', value: (a) => a.name },
  { header: 'ROLE', value: (a) => a.role },
  { header: 'DEPARTMENT', value: (a) => a.department },
  { header: 'LEVEL', value: (a) => a.level },
  { header: 'STATUS', value: (a) => a.status, tone: true },
  { header: 'MODEL', value: (a) => a.model?.model_id },
  { header: 'AUTONOMY', value: (a) => a.autonomy_level },
];

const ACTIVITY: Column<Activity>[] = [
  { header: 'TIME', value: (e) => e.timestamp },
  { header: 'EVENT', value: (e) => e.event_type },
  { header: 'DESCRIPTION', value: (e) => e.description },
];

async function list(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const page = await unwrapPage(ctx.client.GET('/api/v1/agents', { params: { query: paging(flags) } }));
  ctx.list(page.items, COLUMNS, (a) => a.name, page.total);
}

async function show(ctx: Context, [name]: string[]): Promise<void> {
  const agent = await unwrap(ctx.client.GET('/api/v1/agents/{agent_name}', path(name)));
  ctx.show(agent, (a: Agent) => a.name);
}

async function activity(ctx: Context, [name]: string[], flags: Flags): Promise<void> {
  const page = await unwrapPage(
    ctx.client.GET('/api/v1/agents/{agent_name}/activity', {
      params: { path: { agent_name: name }, query: paging(flags) },
    }),
  );
  ctx.list(page.items, ACTIVITY, (e) => e.timestamp, page.total);
}

async function performance(ctx: Context, [name]: string[]): Promise<void> {
  const summary = await unwrap(ctx.client.GET('/api/v1/agents/{agent_name}/performance', path(name)));
  ctx.show(
    summary,
    (s: typeof summary) => s.agent_name,
    (s: typeof summary) => ({
      agent: s.agent_name,
      tasks_completed_total: s.tasks_completed_total,
      tasks_completed_7d: s.tasks_completed_7d,
      tasks_completed_30d: s.tasks_completed_30d,
      success_rate_percent: s.success_rate_percent,
      avg_completion_time_seconds: s.avg_completion_time_seconds,
      cost_per_task: s.cost_per_task,
      quality_score: s.quality_score,
      collaboration_score: s.collaboration_score,
      trend: s.trend_direction,
    }),
  );
}

async function autonomyGet(ctx: Context, [name]: string[]): Promise<void> {
  const autonomy = await unwrap(ctx.client.GET('/api/v1/agents/{agent_name}/autonomy', path(name)));
  ctx.show(autonomy, (a: typeof autonomy) => a.level);
}

const LEVELS = ['full', 'semi', 'supervised', 'locked', 'inherit'];

async function autonomySet(ctx: Context, [name, level]: string[], flags: Flags): Promise<void> {
  if (!LEVELS.includes(level)) {
    throw usage(`the level is one of ${LEVELS.join(', ')}: ${level}`);
  }
  const body = {
    level: level === 'inherit' ? null : level,
    ...(str(flags.reason) ? { reason: str(flags.reason) } : {}),
  };
  const autonomy = await unwrap(
    ctx.client.PUT('/api/v1/agents/{agent_name}/autonomy', { ...path(name), body: body as never }),
  );
  ctx.done(`${autonomy.agent_name} now works at ${autonomy.level} (${autonomy.source}).`, autonomy, autonomy.level);
}

async function fire(ctx: Context, [name]: string[], flags: Flags): Promise<void> {
  const body = {
    reason: str(flags.reason) as string,
    ...(str(flags.details) ? { details: str(flags.details) } : {}),
  };
  const record = await ctx.progress(`Offboarding ${name}`, () =>
    unwrap(ctx.client.POST('/api/v1/agents/{agent_name}/fire', { ...path(name), body: body as never })),
  );
  ctx.done(
    `Fired ${record.agent_name}; ${record.tasks_reassigned.length} task(s) reassigned.`,
    record,
    record.agent_id,
  );
}

export function registerAgents(program: Command, r: Registry): void {
  const agents = program.command('agents').description('the roster: agents, their work, autonomy and offboarding');
  listFlags(agents.command('list').description('the roster, in stored order')).action(r.action(list));
  agents
    .command('show')
    .description('one agent (name is case-insensitive)')
    .argument('<name>', 'agent name')
    .action(r.action(show));
  listFlags(
    agents
      .command('activity')
      .description("the agent's activity timeline, newest first")
      .argument('<name>', 'agent name'),
  ).action(r.action(activity));
  agents
    .command('performance')
    .description('performance over 7/30/90-day windows')
    .argument('<name>', 'agent name')
    .action(r.action(performance));
  const autonomy = agents.command('autonomy').description("an agent's autonomy level");
  autonomy
    .command('get')
    .description('the level in force and where it comes from')
    .argument('<name>', 'agent name')
    .action(r.action(autonomyGet));
  autonomy
    .command('set')
    .description("set the agent's own level (inherit: clear it, the department's or company's applies)")
    .argument('<name>', 'agent name')
    .argument('<level>', LEVELS.join(', '))
    .option('--reason <text>', 'why (kept in the audit trail)')
    .action(r.action(autonomySet));
  agents
    .command('fire')
    .description('fire and offboard an agent (its tasks are reassigned)')
    .argument('<name>', 'agent name')
    .requiredOption('--reason <reason>', 'manual, performance, budget, project_completion')
    .option('--details <text>', 'free text kept with the offboarding record')
    .action(r.action(fire));
}
