// login, logout, whoami, password, status: the session of a profile and the service's state.
import type { Command } from 'commander';

import { normaliseUrl } from '../config';
import { type Context, unwrap } from '../context';
import { ApiError } from '@app/client';
import { CliError, ExitCode, usage } from '../errors';
import { askHidden, ask, readStdin, readStdinLines } from '../prompt';
import type { Flags, Registry } from '../program';

/** Stores a token (and the server and user it belongs to) in the profile, and makes it current. */
export function saveSession(ctx: Context, url: string, token: string, username: string): void {
  const config = ctx.loadConfig();
  const name = ctx.profile.profileName;
  ctx.saveConfig({
    ...config,
    current: name,
    profiles: { ...config.profiles, [name]: { ...config.profiles[name], url, token, username } },
  });
}

async function login(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const url = typeof flags.url === 'string' ? normaliseUrl(flags.url) : ctx.profile.url;
  const username = typeof flags.username === 'string' ? flags.username : await ask(ctx.io, 'Username', '--username');
  if (!username) {
    throw usage('a username is needed (--username)');
  }
  const password = flags.passwordStdin
    ? await readStdin(ctx.io, 'password')
    : await askHidden(ctx.io, 'Password', '--password-stdin');
  const client = ctx.clientFor(url, null);
  const session = await unwrap(client.POST('/api/v1/auth/login', { body: { username, password } }));
  saveSession(ctx, url, session.token, username);
  const shown = {
    username,
    url,
    profile: ctx.profile.profileName,
    expires_in: session.expires_in,
    must_change_password: session.must_change_password,
  };
  ctx.done(`Signed in as ${username} at ${url} (profile ${ctx.profile.profileName}).`, shown, username);
  if (session.must_change_password) {
    ctx.note('This account must change its password first: run `synthorg password`.');
  }
}

async function logout(ctx: Context): Promise<void> {
  const { token, profileName, tokenSource } = ctx.profile;
  if (token) {
    try {
      await unwrap(ctx.client.POST('/api/v1/auth/logout'));
    } catch (error) {
      // An expired or revoked session is as good as logged out; other failures still clear the profile.
      if (!(error instanceof ApiError) || error.status !== 401) {
        ctx.note(`the server did not confirm the logout: ${(error as Error).message}`);
      }
    }
  }
  const config = ctx.loadConfig();
  const profile = config.profiles[profileName];
  if (profile?.token) {
    const { token: _dropped, ...rest } = profile;
    ctx.saveConfig({ ...config, profiles: { ...config.profiles, [profileName]: rest } });
  }
  if (tokenSource === 'env') {
    ctx.note('SYNTHORG_TOKEN is still set in the environment.');
  }
  ctx.done(`Signed out (profile ${profileName}).`, { profile: profileName, signed_out: true }, profileName);
}

async function whoami(ctx: Context): Promise<void> {
  const me = await unwrap(ctx.client.GET('/api/v1/auth/me'));
  ctx.show(
    me,
    (m: typeof me) => m.username,
    (m: typeof me) => ({
      username: m.username,
      role: m.role,
      department: m.department,
      must_change_password: m.must_change_password,
      server: ctx.profile.url,
      profile: ctx.profile.profileName,
    }),
  );
}

async function password(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  let current: string;
  let next: string;
  if (flags.passwordStdin) {
    [current, next] = await readStdinLines(ctx.io, 'the current password, then the new one', 2);
  } else {
    current = await askHidden(ctx.io, 'Current password', '--password-stdin');
    next = await askHidden(ctx.io, 'New password (12-128 characters)', '--password-stdin');
    if ((await askHidden(ctx.io, 'New password again', '--password-stdin')) !== next) {
      throw usage('the new passwords differ');
    }
  }
  const me = await unwrap(ctx.client.GET('/api/v1/auth/me'));
  const session = await unwrap(
    ctx.client.POST('/api/v1/auth/change-password', { body: { current_password: current, new_password: next } }),
  );
  if (ctx.profile.tokenSource === 'profile') {
    saveSession(ctx, ctx.profile.url, session.token, me.username);
  }
  ctx.done('Password changed; other sessions were signed out.', { username: me.username, changed: true }, me.username);
}

/** The answer of a call, or null when it was refused for want of a session or a role. */
async function optional<T>(pending: Promise<T>): Promise<T | null> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      return null;
    }
    throw error;
  }
}

async function status(ctx: Context): Promise<void> {
  const { client, profile } = ctx;
  const [health, readyResponse, setup] = await Promise.all([
    unwrap(client.GET('/api/v1/health')),
    client.GET('/api/v1/health/ready').then(
      (r) => r.response.ok,
      () => false,
    ),
    unwrap(client.GET('/api/v1/setup/status')),
  ]);
  const signedIn = profile.token !== null;
  const [approvals, budget] = signedIn
    ? await Promise.all([
        optional(
          client.GET('/api/v1/approvals', { params: { query: { status: 'pending', limit: 1 } } }).then(async (r) => {
            if (!r.response.ok) {
              await unwrap(Promise.resolve(r));
            }
            return r.data?.pagination?.total ?? 0;
          }),
        ),
        optional(unwrap(client.GET('/api/v1/budget'))),
      ])
    : [null, null];
  const data = {
    server: profile.url,
    health,
    ready: readyResponse,
    setup,
    pending_approvals: approvals,
    budget: budget
      ? {
          used_percent: budget.budget_used_percent,
          alert_level: budget.alert_level,
          total_monthly: budget.budget_total_monthly,
          currency: budget.currency,
        }
      : null,
  };
  ctx.show(
    data,
    (d: typeof data) => d.health.status,
    (d: typeof data) => ({
      server: d.server,
      status: d.health.status,
      version: d.health.version,
      ready: d.ready,
      uptime_seconds: Math.round(d.health.uptime_seconds),
      setup: d.setup.needs_admin
        ? 'needs an admin (synthorg setup)'
        : d.setup.needs_setup
          ? 'not complete (synthorg setup)'
          : 'complete',
      pending_approvals: d.pending_approvals ?? (signedIn ? 'not visible' : 'sign in to see'),
      budget: d.budget
        ? `${d.budget.used_percent.toFixed(1)} % of ${d.budget.total_monthly} ${d.budget.currency} (${d.budget.alert_level})`
        : '-',
    }),
  );
  if (!readyResponse) {
    throw new CliError('the service is not ready', ExitCode.ApiError);
  }
}

export function registerAccount(program: Command, r: Registry): void {
  program
    .command('login')
    .description('sign in and store the session token in the profile (mode 0600)')
    .option('--url <url>', "server URL to store in the profile (default: the profile's, else http://127.0.0.1:8000)")
    .option('-u, --username <name>', 'account name (asked when missing)')
    .option('--password-stdin', 'read the password from stdin instead of asking without echo')
    .addHelpText(
      'after',
      '\nExample:\n  printf %s "$PASSWORD" | synthorg login --url https://synthorg.example --username ceo --password-stdin\n',
    )
    .action(r.action(login));
  program.command('logout').description('revoke the session and forget its token').action(r.action(logout));
  program.command('whoami').description('the signed-in account: name, role, department').action(r.action(whoami));
  program
    .command('password')
    .description('change the own password (other sessions are signed out; the profile keeps the new token)')
    .option('--password-stdin', 'read the current and the new password as two lines of stdin')
    .action(r.action(password));
  program
    .command('status')
    .description('health, readiness, version, setup state, pending approvals and budget status')
    .action(r.action(status));
}
