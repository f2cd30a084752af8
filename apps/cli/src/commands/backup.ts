// backup create|list|show|delete|restore (the CEO's and the System identity's)
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { commaList, type Context, paging, unwrap, unwrapPage } from '../context';
import { usage } from '../errors';
import { bytes, type Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';

type Backup = Schemas['BackupInfo'];
const byId = (id: string) => ({ params: { path: { backup_id: id } } });

const COLUMNS: Column<Backup>[] = [
  { header: 'ID', value: (b) => b.backup_id },
  { header: 'TIME', value: (b) => b.timestamp },
  { header: 'TRIGGER', value: (b) => b.trigger },
  { header: 'COMPONENTS', value: (b) => b.components },
  { header: 'SIZE', value: (b) => bytes(b.size_bytes) },
  { header: 'COMPRESSED', value: (b) => b.compressed },
];

async function create(ctx: Context): Promise<void> {
  const manifest = await ctx.progress('Taking a backup', () => unwrap(ctx.client.POST('/api/v1/admin/backups')));
  ctx.done(
    `Backup ${manifest.backup_id}: ${manifest.components.join(', ')}, ${bytes(manifest.size_bytes)}.`,
    manifest,
    manifest.backup_id,
  );
}

async function list(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const page = await unwrapPage(ctx.client.GET('/api/v1/admin/backups', { params: { query: paging(flags) } }));
  ctx.list(page.items, COLUMNS, (b) => b.backup_id, page.total);
}

async function show(ctx: Context, [id]: string[]): Promise<void> {
  const manifest = await unwrap(ctx.client.GET('/api/v1/admin/backups/{backup_id}', byId(id)));
  ctx.show(manifest, (m: typeof manifest) => m.backup_id);
}

async function remove(ctx: Context, [id]: string[]): Promise<void> {
  await unwrap(ctx.client.DELETE('/api/v1/admin/backups/{backup_id}', byId(id)));
  ctx.done(`Deleted backup ${id}.`, { backup_id: id, deleted: true }, id);
}

async function restore(ctx: Context, [id]: string[], flags: Flags): Promise<void> {
  if (!flags.confirm) {
    throw usage(`restoring replaces the service's data with backup ${id}: add --confirm to go ahead`);
  }
  const components = commaList(typeof flags.components === 'string' ? flags.components : undefined);
  const result = await ctx.progress(`Restoring backup ${id}`, () =>
    unwrap(
      ctx.client.POST('/api/v1/admin/backups/restore', {
        body: { backup_id: id, confirm: true, ...(components ? { components: components as never } : {}) },
      }),
    ),
  );
  ctx.done(
    `Restored ${result.restored_components.join(', ')} from ${id}; safety backup ${result.safety_backup_id}.` +
      (result.restart_required ? ' Restart the service: the configuration file was restored.' : ''),
    result,
    result.safety_backup_id,
  );
}

export function registerBackup(program: Command, r: Registry): void {
  const backup = program
    .command('backup')
    .description('backups of the database and configuration (CEO, or the System token: npm run system-token)');
  backup.command('create').description('take a backup now').action(r.action(create));
  listFlags(backup.command('list').description('backups, newest first')).action(r.action(list));
  backup
    .command('show')
    .description("a backup's manifest")
    .argument('<id>', 'backup id (12 hex digits)')
    .action(r.action(show));
  backup.command('delete').description('delete a backup').argument('<id>', 'backup id').action(r.action(remove));
  backup
    .command('restore')
    .description('restore a backup (a pre_migration safety backup is taken first); needs --confirm')
    .argument('<id>', 'backup id')
    .option('--confirm', 'yes, replace the current data')
    .option('--components <names>', 'comma-separated: persistence, config (default: all in the backup)')
    .action(r.action(restore));
}
