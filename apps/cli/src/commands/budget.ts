// budget show|records|forecast, budget config get|set
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, integer, paging, unwrap, unwrapPage } from '../context';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';

type CostRecord = Schemas['CostRecord'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const RECORDS: Column<CostRecord>[] = [
  { header: 'TIME', value: (c) => c.timestamp },
  { header: 'AGENT', value: (c) => c.agent_id },
  { header: 'TASK', value: (c) => c.task_id },
  { header: 'PROVIDER', value: (c) => c.provider },
  { header: 'MODEL', value: (c) => c.model },
  { header: 'TOKENS', value: (c) => c.total_tokens },
  { header: 'COST', value: (c) => c.cost_usd.toFixed(4) },
  { header: 'CATEGORY', value: (c) => c.call_category },
];

async function show(ctx: Context): Promise<void> {
  const summary = await unwrap(ctx.client.GET('/api/v1/budget'));
  ctx.show(
    summary,
    (s: typeof summary) => s.alert_level,
    (s: typeof summary) => ({
      period: s.period,
      budget_total_monthly: `${s.budget_total_monthly} ${s.currency}`,
      budget_used_percent: s.budget_used_percent,
      alert_level: s.alert_level,
      forecast: s.forecast,
      agents: s.by_agent.length,
      departments: s.by_department.length,
    }),
  );
}

async function records(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const query = {
    ...paging(flags),
    ...(str(flags.agentId) ? { agent_id: str(flags.agentId) } : {}),
    ...(str(flags.taskId) ? { task_id: str(flags.taskId) } : {}),
  };
  const page = await unwrapPage(ctx.client.GET('/api/v1/budget/records', { params: { query } }));
  ctx.list(page.items, RECORDS, (c) => `${c.timestamp} ${c.agent_id}`, page.total);
}

async function forecast(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const horizon = str(flags.horizonDays);
  const query = horizon ? { horizon_days: integer(horizon, '--horizon-days', 1) } : {};
  const result = await unwrap(ctx.client.GET('/api/v1/analytics/forecast', { params: { query } }));
  ctx.show(
    result,
    (f: typeof result) => f.days_until_exhausted,
    (f: typeof result) => ({
      horizon_days: f.horizon_days,
      avg_daily_spend: `${f.avg_daily_spend_usd} ${f.currency}`,
      projected_total: `${f.projected_total_usd} ${f.currency}`,
      days_until_exhausted: f.days_until_exhausted,
      confidence: f.confidence,
    }),
  );
}

async function configGet(ctx: Context): Promise<void> {
  const config = await unwrap(ctx.client.GET('/api/v1/budget/config'));
  ctx.show(config);
}

async function configSet(ctx: Context, [key, value]: string[]): Promise<void> {
  const entry = await unwrap(
    ctx.client.PUT('/api/v1/settings/{namespace}/{key}', {
      params: { path: { namespace: 'budget', key } },
      body: { value },
    }),
  );
  ctx.done(`budget.${key} = ${String(entry.value)}`, entry, key);
}

export function registerBudget(program: Command, r: Registry): void {
  const budget = program.command('budget').description('spending, cost records, forecast and limits');
  budget
    .command('show')
    .description("the billing period's spending, used percent and alert level")
    .action(r.action(show));
  listFlags(
    budget
      .command('records')
      .description('cost records, newest first')
      .option('--agent-id <id>', 'only this agent (its id)')
      .option('--task-id <id>', 'only this task'),
  ).action(r.action(records));
  budget
    .command('forecast')
    .description('daily spend projections and when the budget runs out')
    .option('--horizon-days <n>', 'days ahead (1-90, default 14)')
    .action(r.action(forecast));
  const config = budget.command('config').description('the budget configuration (the budget settings namespace)');
  config
    .command('get')
    .description('limits, alerts, reset day, currency, auto-downgrade, risk budget')
    .action(r.action(configGet));
  config
    .command('set')
    .description('store one budget setting (synthorg settings schema budget lists the keys)')
    .argument('<key>', 'e.g. total_monthly, per_task_limit, alert_warn_at, reset_day')
    .argument('<value>', 'the new value')
    .action(r.action(configSet));
}
