// audit list|verify|export
import { createWriteStream, type WriteStream } from 'node:fs';

import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, paging, unwrap, unwrapPage } from '../context';
import { CliError, ExitCode, usage } from '../errors';
import { renderRecord, type Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';

type AuditEntry = Schemas['AuditEntry'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const PAGE = 200;

const COLUMNS: Column<AuditEntry>[] = [
  { header: 'SEQ', value: (e) => e.seq },
  { header: 'TIME', value: (e) => e.at },
  { header: 'ACTOR', value: (e) => e.actor },
  { header: 'ACTION', value: (e) => e.action },
  { header: 'TARGET', value: (e) => e.target },
  { header: 'OUTCOME', value: (e) => e.outcome, tone: true },
];

/** An ISO 8601 instant, else a usage error naming the flag. */
function instant(raw: string | undefined, flag: string): string | undefined {
  if (raw === undefined) {
    return undefined;
  }
  const time = Date.parse(raw);
  if (Number.isNaN(time)) {
    throw usage(`${flag} must be a date or time (ISO 8601): ${raw}`);
  }
  return new Date(time).toISOString();
}

function filters(flags: Flags): Record<string, string> {
  const since = instant(str(flags.since), '--since');
  const until = instant(str(flags.until), '--until');
  return {
    ...(str(flags.actor) ? { actor: str(flags.actor) as string } : {}),
    ...(str(flags.action) ? { action: str(flags.action) as string } : {}),
    ...(since ? { since } : {}),
    ...(until ? { until } : {}),
  };
}

async function list(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const page = await unwrapPage(
    ctx.client.GET('/api/v1/audit', { params: { query: { ...filters(flags), ...paging(flags) } } }),
  );
  ctx.list(page.items, COLUMNS, (e) => e.id, page.total);
}

/** Every row matching `query`, newest first, page by page (the upper bound fixed, so pages do not shift). */
async function* rows(
  ctx: Context,
  query: Record<string, string>,
  onPage: (seen: number, total: number) => void = () => undefined,
): AsyncGenerator<AuditEntry> {
  const bounded = { ...query, until: query.until ?? new Date().toISOString() };
  let seen = 0;
  for (let offset = 0; ; offset += PAGE) {
    const page = await unwrapPage(
      ctx.client.GET('/api/v1/audit', { params: { query: { ...bounded, offset, limit: PAGE } } }),
    );
    for (const entry of page.items) {
      yield entry;
    }
    seen += page.items.length;
    onPage(seen, page.total);
    if (page.items.length < PAGE || seen >= page.total) {
      return;
    }
  }
}

async function verify(ctx: Context): Promise<void> {
  const result = await ctx.progress('Verifying the audit chain', () => unwrap(ctx.client.GET('/api/v1/audit/verify')));
  if (result.ok) {
    ctx.done(`The audit chain holds: ${result.checked} rows checked.`, result, 'ok');
    return;
  }
  let broken: AuditEntry | null = null;
  if (result.broken_seq !== null) {
    for await (const entry of rows(ctx, {})) {
      if (entry.seq === result.broken_seq) {
        broken = entry;
        break;
      }
      if (entry.seq < result.broken_seq) {
        break;
      }
    }
  }
  if (ctx.mode.json) {
    ctx.out(JSON.stringify({ ...result, broken_row: broken }, null, ctx.io.stdout.isTTY ? 2 : undefined) + '\n');
  } else if (ctx.mode.quiet) {
    ctx.out(`${String(result.broken_seq)}\n`);
  } else {
    ctx.out(`The audit chain is broken at row ${String(result.broken_seq)}: ${result.reason ?? 'unknown reason'}\n`);
    if (broken) {
      ctx.out(renderRecord(broken, ctx.mode.color));
    }
  }
  throw new CliError(
    `audit chain broken at row ${String(result.broken_seq)} (${result.checked} rows checked)`,
    ExitCode.ApiError,
  );
}

async function exportRows(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  if (str(flags.format) !== 'jsonl') {
    throw usage(`--format must be jsonl: ${str(flags.format)}`);
  }
  const query = filters(flags);
  if (!query.since) {
    throw usage('--since is required (the start of the period to export)');
  }
  const collected: AuditEntry[] = [];
  await ctx.progress('Exporting the audit trail', async (update) => {
    for await (const entry of rows(ctx, query, (seen, total) =>
      update(`Exporting the audit trail: ${seen} of ${total} rows`),
    )) {
      collected.push(entry);
    }
  });
  // Oldest first, as the chain runs: an auditor can re-hash the file in order.
  collected.sort((a, b) => a.seq - b.seq);
  const file = str(flags.output);
  const sink: WriteStream | NodeJS.WriteStream = file ? createWriteStream(file, { mode: 0o600 }) : ctx.io.stdout;
  for (const entry of collected) {
    sink.write(JSON.stringify(entry) + '\n');
  }
  if (file) {
    await new Promise<void>((done, fail) =>
      (sink as WriteStream).end((error?: Error | null) => (error ? fail(error) : done())),
    );
    ctx.io.stderr.write(`${collected.length} audit rows written to ${file}\n`);
  }
}

export function registerAudit(program: Command, r: Registry): void {
  const audit = program.command('audit').description('the hash-chained audit trail');
  const filtered = (command: Command) =>
    command
      .option('--actor <name>', 'who acted')
      .option('--action <name>', 'what was done, e.g. approval.decided')
      .option('--since <iso>', 'from this time (ISO 8601)')
      .option('--until <iso>', 'up to this time (ISO 8601)');
  listFlags(filtered(audit.command('list').description('audit rows, newest first'))).action(r.action(list));
  audit
    .command('verify')
    .description('verify the hash chain; exit 1 and print the first broken row when it does not hold')
    .action(r.action(verify));
  filtered(
    audit
      .command('export')
      .description('every row of a period as JSON lines, oldest first, for auditors')
      .option('--format <format>', 'jsonl (one JSON document per row)', 'jsonl')
      .option('-o, --output <file>', 'write to this file (mode 0600) instead of stdout'),
  ).action(r.action(exportRows));
}
