// agents list|show|activity|performance|edit|fire, agents autonomy get|set, and the workforce:
// hire, onboarding, evaluate-level (promote), fire-request, release-name
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, number, paging, unwrap, unwrapPage } from '../context';
import { usage } from '../errors';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';
import { hire } from './hiring';
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

type Onboarding = Schemas['Onboarding'];

function showOnboarding(ctx: Context, onboarding: Onboarding): void {
  ctx.show(
    onboarding,
    (o: Onboarding) => o.agent_name,
    (o: Onboarding) => ({
      agent: o.agent_name,
      hiring_request_id: o.hiring_request_id,
      started_at: o.started_at,
      completed_at: o.completed_at,
      ...Object.fromEntries(
        o.steps.map((step) => [step.name, step.reason ? `${step.state}: ${step.reason}` : step.state]),
      ),
    }),
  );
}

async function onboarding(ctx: Context, [name]: string[]): Promise<void> {
  showOnboarding(ctx, await unwrap(ctx.client.GET('/api/v1/agents/{agent_name}/onboarding', path(name))));
}

async function onboardingRetry(ctx: Context, [name]: string[]): Promise<void> {
  showOnboarding(ctx, await unwrap(ctx.client.POST('/api/v1/agents/{agent_name}/onboarding/retry', path(name))));
}

async function evaluateLevel(ctx: Context, [name]: string[]): Promise<void> {
  const evaluation = await unwrap(ctx.client.POST('/api/v1/agents/{agent_name}/evaluate-level', path(name)));
  ctx.show(
    evaluation,
    (e: typeof evaluation) => e.decision,
    (e: typeof evaluation) => ({
      agent: e.agent_name,
      level: e.level,
      decision: e.decision,
      to_level: e.to_level,
      reason: e.reason,
      promotion_criteria_met: e.promotion_criteria_met,
      demotion_criteria_met: e.demotion_criteria_met,
      min_criteria_met: e.min_criteria_met,
      approval_id: e.approval_id,
      evaluated_at: e.evaluated_at,
    }),
  );
}

async function fireRequest(ctx: Context, [name]: string[], flags: Flags): Promise<void> {
  const body = {
    reason: str(flags.reason) as string,
    ...(str(flags.details) ? { details: str(flags.details) } : {}),
  };
  const item = await unwrap(
    ctx.client.POST('/api/v1/agents/{agent_name}/fire-request', { ...path(name), body: body as never }),
  );
  ctx.done(`Asked to fire ${name}: approval ${item.id} is ${item.status}.`, item, item.id);
}

async function releaseName(ctx: Context, [name]: string[]): Promise<void> {
  const agent = await unwrap(ctx.client.POST('/api/v1/agents/{agent_name}/release-name', path(name)));
  ctx.done(`Released the name ${name}; the archived agent is now ${agent.name}.`, agent, agent.name);
}

const STATUSES = ['active', 'on_leave'];

async function edit(ctx: Context, [name]: string[], flags: Flags): Promise<void> {
  const model = {
    ...(str(flags.provider) ? { provider: str(flags.provider) } : {}),
    ...(str(flags.model) ? { model_id: str(flags.model) } : {}),
  };
  const status = str(flags.status);
  if (status !== undefined && !STATUSES.includes(status)) {
    throw usage(`--status is one of ${STATUSES.join(', ')}: ${status}`);
  }
  const body = {
    ...(str(flags.department) ? { department: str(flags.department) } : {}),
    ...(Object.keys(model).length > 0 ? { model } : {}),
    ...(status ? { status } : {}),
    ...(str(flags.budgetLimit)
      ? { budget_limit_monthly: number(str(flags.budgetLimit) as string, '--budget-limit') }
      : {}),
    ...(str(flags.reason) ? { reason: str(flags.reason) } : {}),
  };
  if (Object.keys(body).filter((key) => key !== 'reason').length === 0) {
    throw usage('nothing to change: give --department, --model, --provider, --status or --budget-limit');
  }
  // The current version first, so a concurrent edit answers 409 instead of being overwritten.
  const current = ctx.client.GET('/api/v1/agents/{agent_name}', path(name));
  await unwrap(current);
  const etag = (await current).response.headers.get('etag');
  const agent = await unwrap(
    ctx.client.PATCH('/api/v1/agents/{agent_name}', {
      params: { path: { agent_name: name }, header: etag ? { 'If-Match': etag } : {} },
      body: body as never,
    }),
  );
  ctx.done(`Updated ${agent.name}.`, agent, agent.name);
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
    .command('edit')
    .description('change an agent (only the given fields; a model change applies from its next task)')
    .argument('<name>', 'agent name')
    .option('--department <name>', 'move it to this department')
    .option('--model <id>', "a model id or alias of the provider's")
    .option('--provider <name>', 'the provider of the model')
    .option('--status <status>', STATUSES.join(', '))
    .option('--budget-limit <amount>', 'monthly budget limit')
    .option('--reason <text>', 'why (kept in the audit trail)')
    .action(r.action(edit));
  agents
    .command('hire')
    .description('file a hiring request; it lists the candidates (then: hiring select, hiring instantiate)')
    .requiredOption('--department <name>', 'department to hire into')
    .requiredOption('--role <role>', 'the role, as the templates name it')
    .requiredOption('--level <level>', 'junior, mid, senior, lead, principal, director, vp, c_suite')
    .option('--skill <skill>', 'a required skill (repeat for more)', (value: string, all: string[] = []) => [
      ...all,
      value,
    ])
    .requiredOption('--reason <text>', 'why the team needs it')
    .option('--budget-limit <amount>', 'monthly budget limit of the new agent')
    .option('--template <name>', 'draw candidates from this template')
    .action(r.action(hire));
  agents
    .command('onboarding')
    .description("the agent's onboarding checklist")
    .argument('<name>', 'agent name')
    .action(r.action(onboarding));
  agents
    .command('onboarding-retry')
    .description('run the failed onboarding steps again')
    .argument('<name>', 'agent name')
    .action(r.action(onboardingRetry));
  agents
    .command('evaluate-level')
    .alias('promote')
    .description('evaluate the agent for promotion or demotion (a change may wait for approval)')
    .argument('<name>', 'agent name')
    .action(r.action(evaluateLevel));
  agents
    .command('fire-request')
    .description('ask for an agent to be fired (an approval item decides)')
    .argument('<name>', 'agent name')
    .requiredOption('--reason <reason>', 'manual, performance, budget, project_completion')
    .option('--details <text>', 'free text kept with the request')
    .action(r.action(fireRequest));
  agents
    .command('release-name')
    .description("free a terminated agent's name for a new hire")
    .argument('<name>', 'agent name')
    .action(r.action(releaseName));
  agents
    .command('fire')
    .description('fire and offboard an agent (its tasks are reassigned)')
    .argument('<name>', 'agent name')
    .requiredOption('--reason <reason>', 'manual, performance, budget, project_completion')
    .option('--details <text>', 'free text kept with the offboarding record')
    .action(r.action(fire));
}
