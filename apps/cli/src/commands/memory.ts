// memory status|list|search|delete, memory org list|add|delete
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, integer, paging, unwrap, unwrapPage } from '../context';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';

type Entry = Schemas['MemoryEntry'];
type Fact = Schemas['OrgFact'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const ENTRIES: Column<Entry>[] = [
  { header: 'ID', value: (e) => e.id },
  { header: 'CATEGORY', value: (e) => e.category },
  { header: 'PROJECT', value: (e) => e.project },
  { header: 'SCORE', value: (e) => e.relevance_score },
  { header: 'CREATED', value: (e) => e.created_at },
  { header: 'CONTENT', value: (e) => e.content },
];

const FACTS: Column<Fact>[] = [
  { header: 'ID', value: (f) => f.id },
  { header: 'CATEGORY', value: (f) => f.category },
  { header: 'DEPARTMENT', value: (f) => f.department },
  { header: 'AUTHOR', value: (f) => f.author },
  { header: 'CREATED', value: (f) => f.created_at },
  { header: 'CONTENT', value: (f) => f.content },
];

const MEMORY_CATEGORIES = 'working, episodic, semantic, procedural, social';
const FACT_CATEGORIES = 'core_policy, adr, procedure, convention';

async function status(ctx: Context): Promise<void> {
  const state = await unwrap(ctx.client.GET('/api/v1/memory/status'));
  ctx.show(state, (s: typeof state) => (s.wired ? 'wired' : 'unwired'));
}

async function list(ctx: Context, [agent]: string[], flags: Flags): Promise<void> {
  const query = {
    ...paging(flags),
    ...(str(flags.category) ? { category: str(flags.category) } : {}),
    ...(str(flags.project) ? { project: str(flags.project) } : {}),
  };
  const page = await unwrapPage(
    ctx.client.GET('/api/v1/agents/{agent_name}/memories', {
      params: { path: { agent_name: agent }, query: query as never },
    }),
  );
  ctx.list(page.items, ENTRIES, (e) => e.id, page.total);
}

async function search(ctx: Context, [agent, query]: string[], flags: Flags): Promise<void> {
  const body = {
    query,
    ...(str(flags.category) ? { category: str(flags.category) } : {}),
    ...(str(flags.limit) ? { limit: integer(str(flags.limit) as string, '--limit', 1) } : {}),
  };
  const entries = await unwrap(
    ctx.client.POST('/api/v1/agents/{agent_name}/memories/search', {
      params: { path: { agent_name: agent } },
      body: body as never,
    }),
  );
  ctx.list(entries, ENTRIES, (e) => e.id);
}

async function remove(ctx: Context, [agent, id]: string[]): Promise<void> {
  await unwrap(
    ctx.client.DELETE('/api/v1/agents/{agent_name}/memories/{memory_id}', {
      params: { path: { agent_name: agent, memory_id: id } },
    }),
  );
  ctx.done(`Deleted memory ${id} of ${agent}.`, { id, deleted: true }, id);
}

async function orgList(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const query = { ...paging(flags), ...(str(flags.category) ? { category: str(flags.category) } : {}) };
  const page = await unwrapPage(ctx.client.GET('/api/v1/memory/org', { params: { query: query as never } }));
  ctx.list(page.items, FACTS, (f) => f.id, page.total);
}

async function orgAdd(ctx: Context, [content]: string[], flags: Flags): Promise<void> {
  const body = {
    category: str(flags.category) as string,
    content,
    ...(str(flags.department) ? { department: str(flags.department) } : {}),
  };
  const fact = await unwrap(ctx.client.POST('/api/v1/memory/org', { body: body as never }));
  ctx.done(`Added organisation fact ${fact.id} (${fact.category}).`, fact, fact.id);
}

async function orgDelete(ctx: Context, [id]: string[]): Promise<void> {
  await unwrap(ctx.client.DELETE('/api/v1/memory/org/{fact_id}', { params: { path: { fact_id: id } } }));
  ctx.done(`Deleted organisation fact ${id}.`, { id, deleted: true }, id);
}

export function registerMemory(program: Command, r: Registry): void {
  const memory = program.command('memory').description("agents' memories and the organisation's facts");
  memory
    .command('status')
    .description('whether memory is wired, its backend, embedder and counts')
    .action(r.action(status));
  listFlags(
    memory
      .command('list')
      .description("an agent's memory entries, newest first")
      .argument('<agent>', 'agent name')
      .option('--category <category>', MEMORY_CATEGORIES)
      .option('--project <project>', 'only entries of this project'),
  ).action(r.action(list));
  memory
    .command('search')
    .description("an agent's entries nearest in meaning to a query")
    .argument('<agent>', 'agent name')
    .argument('<query>', 'what to look for')
    .option('--category <category>', MEMORY_CATEGORIES)
    .option('--limit <n>', 'at most this many entries (default 10)')
    .action(r.action(search));
  memory
    .command('delete')
    .description("delete one of an agent's memory entries")
    .argument('<agent>', 'agent name')
    .argument('<id>', 'memory entry id')
    .action(r.action(remove));
  const org = memory.command('org').description("the organisation's facts, shared by every agent");
  listFlags(
    org
      .command('list')
      .description('organisation facts, newest first')
      .option('--category <category>', FACT_CATEGORIES),
  ).action(r.action(orgList));
  org
    .command('add')
    .description('add an organisation fact')
    .argument('<content>', 'the fact')
    .requiredOption('--category <category>', FACT_CATEGORIES)
    .option('--department <name>', 'the department it concerns (default: everyone)')
    .action(r.action(orgAdd));
  org
    .command('delete')
    .description('delete an organisation fact')
    .argument('<id>', 'fact id')
    .action(r.action(orgDelete));
}
