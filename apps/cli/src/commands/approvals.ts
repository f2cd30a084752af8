// approvals list|show|approve|reject|watch
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, paging, unwrap, unwrapPage } from '../context';
import { renderJson, renderTable, type Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';
import { streamEvents } from '../events';

type Approval = Schemas['ApprovalResponse'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const COLUMNS: Column<Approval>[] = [
  { header: 'ID', value: (a) => a.id },
  { header: 'STATUS', value: (a) => a.status, tone: true },
  { header: 'RISK', value: (a) => a.risk_level, tone: true },
  { header: 'ACTION', value: (a) => a.action_type },
  { header: 'TITLE', value: (a) => a.title },
  { header: 'BY', value: (a) => a.requested_by },
  { header: 'TASK', value: (a) => a.task_id },
  { header: 'CREATED', value: (a) => a.created_at },
];

async function list(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const query = {
    ...paging(flags),
    ...(str(flags.status) ? { status: str(flags.status) } : {}),
    ...(str(flags.riskLevel) ? { risk_level: str(flags.riskLevel) } : {}),
    ...(str(flags.actionType) ? { action_type: str(flags.actionType) } : {}),
  };
  const page = await unwrapPage(ctx.client.GET('/api/v1/approvals', { params: { query: query as never } }));
  ctx.list(page.items, COLUMNS, (a) => a.id, page.total);
}

async function show(ctx: Context, [id]: string[]): Promise<void> {
  const item = await unwrap(
    ctx.client.GET('/api/v1/approvals/{approval_id}', { params: { path: { approval_id: id } } }),
  );
  ctx.show(item, (a: Approval) => a.id);
}

async function approve(ctx: Context, [id]: string[], flags: Flags): Promise<void> {
  const item = await unwrap(
    ctx.client.POST('/api/v1/approvals/{approval_id}/approve', {
      params: { path: { approval_id: id } },
      body: str(flags.comment) ? { comment: str(flags.comment) } : {},
    }),
  );
  ctx.done(`Approved ${item.id}${item.task_id ? ` (task ${item.task_id} resumes)` : ''}.`, item, item.id);
}

async function reject(ctx: Context, [id]: string[], flags: Flags): Promise<void> {
  const item = await unwrap(
    ctx.client.POST('/api/v1/approvals/{approval_id}/reject', {
      params: { path: { approval_id: id } },
      body: { reason: str(flags.reason) as string },
    }),
  );
  ctx.done(`Rejected ${item.id}.`, item, item.id);
}

/** Prints each new approval item as it is filed (a table row, a JSON line, or its id) until interrupted. */
async function watch(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  let header = !ctx.mode.json && !ctx.mode.quiet;
  const types = new Set([
    'approval.created',
    ...(flags.all ? ['approval.decided', 'approval.expired', 'approval.escalated'] : []),
  ]);
  await streamEvents(ctx, ['approvals'], (event) => {
    if (!types.has(event.event_type)) {
      return;
    }
    const item = (event.payload as { approval?: Approval }).approval;
    if (!item) {
      return;
    }
    if (ctx.mode.json) {
      ctx.out(renderJson(item, false));
    } else if (ctx.mode.quiet) {
      ctx.out(`${item.id}\n`);
    } else {
      const table = renderTable([item], COLUMNS, ctx.mode.color).split('\n');
      ctx.out((header ? table.slice(0, 2) : table.slice(1, 2)).join('\n') + '\n');
      header = false;
    }
  });
}

export function registerApprovals(program: Command, r: Registry): void {
  const approvals = program.command('approvals').description('decide what agents asked a person to approve');
  listFlags(
    approvals
      .command('list')
      .description('approval items, filtered')
      .option('--status <status>', 'pending, approved, rejected, expired')
      .option('--risk-level <level>', 'low, medium, high, critical')
      .option('--action-type <type>', 'e.g. tool:write_file, code:read'),
  ).action(r.action(list));
  approvals.command('show').description('one approval item').argument('<id>', 'approval id').action(r.action(show));
  approvals
    .command('approve')
    .description('approve a pending item; its parked run carries on')
    .argument('<id>', 'approval id')
    .option('--comment <text>', 'a comment kept with the decision')
    .action(r.action(approve));
  approvals
    .command('reject')
    .description('reject a pending item; its parked run hears the reason')
    .argument('<id>', 'approval id')
    .requiredOption('--reason <text>', 'why (the agent reads it)')
    .action(r.action(reject));
  approvals
    .command('watch')
    .description('print new approval items as they are filed, until interrupted (--json: one JSON line each)')
    .option('--all', 'also decisions, expiries and escalations')
    .action(r.action(watch));
}
