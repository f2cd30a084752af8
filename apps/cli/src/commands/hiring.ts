// hiring list|show|select|instantiate (agents hire files a request)
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, number, paging, unwrap, unwrapPage } from '../context';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';

type Hiring = Schemas['HiringRequest'];
type Candidate = Schemas['CandidateCard'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const path = (id: string) => ({ params: { path: { request_id: id } } });

const COLUMNS: Column<Hiring>[] = [
  { header: 'ID', value: (h) => h.id },
  { header: 'STATUS', value: (h) => h.status, tone: true },
  { header: 'DEPARTMENT', value: (h) => h.department },
  { header: 'ROLE', value: (h) => h.role },
  { header: 'LEVEL', value: (h) => h.level },
  { header: 'CANDIDATES', value: (h) => h.candidates.length },
  { header: 'REQUESTED BY', value: (h) => h.requested_by },
  { header: 'CREATED', value: (h) => h.created_at },
];

const CANDIDATES: Column<Candidate>[] = [
  { header: 'CANDIDATE', value: (c) => c.id },
  { header: 'NAME', value: (c) => c.name },
  { header: 'PRESET', value: (c) => c.personality_preset },
  { header: 'MODEL', value: (c) => c.model_id },
  { header: 'MONTHLY COST', value: (c) => c.estimated_monthly_cost },
];

/** The request for people: its fields, then its candidates as a table. */
function showRequest(ctx: Context, request: Hiring): void {
  ctx.show(
    request,
    (h: Hiring) => h.id,
    (h: Hiring) => ({
      id: h.id,
      status: h.status,
      department: h.department,
      role: h.role,
      level: h.level,
      required_skills: h.required_skills.join(', '),
      reason: h.reason,
      budget_limit_monthly: h.budget_limit_monthly,
      template: h.template_name,
      requested_by: h.requested_by,
      approval_id: h.approval_id,
      selected_candidate_id: h.selected_candidate_id,
      agent_id: h.agent_id,
      created_at: h.created_at,
    }),
  );
  if (!ctx.mode.json && !ctx.mode.quiet && request.candidates.length > 0) {
    ctx.out('\n');
    ctx.list(request.candidates, CANDIDATES, (c) => c.id);
  }
}

/** `agents hire`: files a hiring request; the answer lists the candidates. */
export async function hire(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const skills = Array.isArray(flags.skill) ? flags.skill : [];
  const body = {
    department: str(flags.department) as string,
    role: str(flags.role) as string,
    level: str(flags.level) as string,
    required_skills: skills,
    reason: str(flags.reason) as string,
    ...(str(flags.budgetLimit)
      ? { budget_limit_monthly: number(str(flags.budgetLimit) as string, '--budget-limit') }
      : {}),
    ...(str(flags.template) ? { template_name: str(flags.template) } : {}),
  };
  const request = await unwrap(ctx.client.POST('/api/v1/hiring/requests', { body: body as never }));
  ctx.note(`Filed hiring request ${request.id} (${request.status}).`);
  showRequest(ctx, request);
}

async function list(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const query = { ...paging(flags), ...(str(flags.status) ? { status: str(flags.status) } : {}) };
  const page = await unwrapPage(ctx.client.GET('/api/v1/hiring/requests', { params: { query: query as never } }));
  ctx.list(page.items, COLUMNS, (h) => h.id, page.total);
}

async function show(ctx: Context, [id]: string[]): Promise<void> {
  showRequest(ctx, await unwrap(ctx.client.GET('/api/v1/hiring/requests/{request_id}', path(id))));
}

async function select(ctx: Context, [id, candidate]: string[]): Promise<void> {
  const request = await unwrap(
    ctx.client.POST('/api/v1/hiring/requests/{request_id}/select', {
      ...path(id),
      body: { candidate_id: candidate },
    }),
  );
  ctx.done(`Selected candidate ${candidate} for ${request.id}.`, request, request.id);
}

async function instantiate(ctx: Context, [id]: string[]): Promise<void> {
  const request = await ctx.progress(`Instantiating ${id}`, () =>
    unwrap(ctx.client.POST('/api/v1/hiring/requests/{request_id}/instantiate', path(id))),
  );
  const chosen = request.candidates.find((c) => c.id === request.selected_candidate_id);
  ctx.done(
    `Hired ${chosen?.name ?? request.agent_id ?? 'the agent'}; onboarding has started (agents onboarding NAME).`,
    request,
    request.agent_id,
  );
}

export function registerHiring(program: Command, r: Registry): void {
  const hiring = program.command('hiring').description('hiring requests: candidates, selection, instantiation');
  listFlags(
    hiring
      .command('list')
      .description('hiring requests, oldest first')
      .option('--status <status>', 'pending, approved, rejected, instantiated'),
  ).action(r.action(list));
  hiring
    .command('show')
    .description('one hiring request and its candidates')
    .argument('<id>', 'hiring request id')
    .action(r.action(show));
  hiring
    .command('select')
    .description('choose the candidate to hire')
    .argument('<id>', 'hiring request id')
    .argument('<candidate>', 'candidate id (hiring show ID)')
    .action(r.action(select));
  hiring
    .command('instantiate')
    .description('make the agent of an approved request (it starts onboarding)')
    .argument('<id>', 'hiring request id')
    .action(r.action(instantiate));
}
