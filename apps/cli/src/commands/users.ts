// users list|create|set-role|delete (the CEO's)
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, unwrap, unwrapPage } from '../context';
import { askHidden, readStdin } from '../prompt';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';

type User = Schemas['UserResponse'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

const COLUMNS: Column<User>[] = [
  { header: 'ID', value: (u) => u.id },
  { header: 'USERNAME', value: (u) => u.username },
  { header: 'ROLE', value: (u) => u.role },
  { header: 'DEPARTMENT', value: (u) => u.department },
  { header: 'MUST CHANGE PASSWORD', value: (u) => u.must_change_password },
  { header: 'CREATED', value: (u) => u.created_at },
];

async function allUsers(ctx: Context): Promise<User[]> {
  const users: User[] = [];
  for (let offset = 0; ; offset += 200) {
    const page = await unwrapPage(ctx.client.GET('/api/v1/users', { params: { query: { limit: 200, offset } } }));
    users.push(...page.items);
    if (page.items.length === 0 || users.length >= page.total) {
      return users;
    }
  }
}

/** An account's id from its id or its name (names are looked up in the list). */
async function userId(ctx: Context, idOrName: string): Promise<string> {
  const users = await allUsers(ctx);
  const match =
    users.find((u) => u.id === idOrName) ?? users.find((u) => u.username.toLowerCase() === idOrName.toLowerCase());
  return match?.id ?? idOrName;
}

async function list(ctx: Context): Promise<void> {
  const users = await allUsers(ctx);
  ctx.list(users, COLUMNS, (u) => u.id);
}

async function create(ctx: Context, [username]: string[], flags: Flags): Promise<void> {
  const password = flags.passwordStdin
    ? await readStdin(ctx.io, 'password')
    : await askHidden(ctx.io, `Initial password of ${username}`, '--password-stdin');
  const user = await unwrap(
    ctx.client.POST('/api/v1/users', {
      body: {
        username,
        password,
        role: str(flags.role) as never,
        ...(str(flags.department) ? { department: str(flags.department) } : {}),
      },
    }),
  );
  ctx.done(`Created ${user.username} (${user.role}); they change the password at first sign-in.`, user, user.id);
}

async function setRole(ctx: Context, [who, role]: string[], flags: Flags): Promise<void> {
  const id = await userId(ctx, who);
  const user = await unwrap(
    ctx.client.PATCH('/api/v1/users/{user_id}', {
      params: { path: { user_id: id } },
      body: { role: role as never, ...(str(flags.department) ? { department: str(flags.department) } : {}) },
    }),
  );
  ctx.done(`${user.username} is now ${user.role}.`, user, user.id);
}

async function remove(ctx: Context, [who]: string[]): Promise<void> {
  const id = await userId(ctx, who);
  await unwrap(ctx.client.DELETE('/api/v1/users/{user_id}', { params: { path: { user_id: id } } }));
  ctx.done(`Deleted the account ${who}.`, { id, deleted: true }, id);
}

const ROLES = 'ceo, manager, board_member, pair_programmer, observer';

export function registerUsers(program: Command, r: Registry): void {
  const users = program.command('users').description('accounts (CEO only)');
  users.command('list').description('every account').action(r.action(list));
  users
    .command('create')
    .description('create an account (it must change its password at first sign-in)')
    .argument('<username>', 'account name')
    .requiredOption('--role <role>', ROLES)
    .option('--department <name>', "a manager's department")
    .option('--password-stdin', 'read the initial password from stdin instead of asking')
    .action(r.action(create));
  users
    .command('set-role')
    .description("change an account's role")
    .argument('<user>', 'account id or name')
    .argument('<role>', ROLES)
    .option('--department <name>', "a manager's department")
    .action(r.action(setRole));
  users
    .command('delete')
    .description('delete an account (its sessions end)')
    .argument('<user>', 'account id or name')
    .action(r.action(remove));
}
