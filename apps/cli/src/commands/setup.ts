// setup: the first run from a terminal — the CEO account, the company from a template, a provider
// from a preset, then completion. Every question is also a flag, so the whole run scripts.
import { readFileSync } from 'node:fs';

import type { Command } from 'commander';

import { type Context, unwrap } from '../context';
import { CliError, ExitCode, usage } from '../errors';
import { ask, askHidden, readStdin } from '../prompt';
import type { Flags, Registry } from '../program';
import { saveSession } from './account';

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

async function createCeo(ctx: Context, flags: Flags): Promise<void> {
  const username = str(flags.username) ?? (await ask(ctx.io, 'CEO account name', '--username', 'ceo'));
  let password: string;
  if (flags.passwordStdin) {
    password = await readStdin(ctx.io, 'password');
  } else {
    password = await askHidden(ctx.io, 'CEO password (12-128 characters)', '--password-stdin');
    if ((await askHidden(ctx.io, 'Password again', '--password-stdin')) !== password) {
      throw usage('the passwords differ');
    }
  }
  const url = ctx.profile.url;
  const session = await unwrap(ctx.clientFor(url, null).POST('/api/v1/auth/setup', { body: { username, password } }));
  saveSession(ctx, url, session.token, username);
  ctx.note(`Created the CEO account ${username}; signed in (profile ${ctx.profile.profileName}).`);
}

async function createCompany(ctx: Context, flags: Flags): Promise<string> {
  let template = str(flags.template);
  if (template === undefined) {
    const templates = await unwrap(ctx.client.GET('/api/v1/setup/templates'));
    ctx.note('Templates: ' + templates.map((t) => `${t.name} (${t.agent_count} agents)`).join(', '));
    template = await ask(ctx.io, 'Company template', '--template', 'startup');
  }
  const name = str(flags.company) ?? (await ask(ctx.io, 'Company name', '--company'));
  if (!name) {
    throw usage('a company name is needed (--company)');
  }
  const company = await ctx.progress('Creating the company', () =>
    unwrap(
      ctx.client.POST('/api/v1/setup/company', {
        body: {
          company_name: name,
          template_name: template,
          ...(str(flags.description) ? { description: str(flags.description) } : {}),
        },
      }),
    ),
  );
  ctx.note(`Created the company ${name} from the ${template} template.`);
  return (company as { company_name?: string }).company_name ?? name;
}

async function apiKey(ctx: Context, flags: Flags, authType: string): Promise<string | undefined> {
  const file = str(flags.apiKeyFile);
  if (file) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new CliError(`cannot read --api-key-file: ${(error as Error).message}`, ExitCode.Usage);
    }
  }
  if (ctx.io.env.SYNTHORG_PROVIDER_API_KEY) {
    return ctx.io.env.SYNTHORG_PROVIDER_API_KEY;
  }
  if (authType === 'api_key') {
    return askHidden(ctx.io, 'API key', '--api-key-file or SYNTHORG_PROVIDER_API_KEY');
  }
  return undefined;
}

async function addProvider(ctx: Context, flags: Flags): Promise<void> {
  const presets = await unwrap(ctx.client.GET('/api/v1/providers/presets'));
  let presetName = str(flags.providerPreset);
  if (presetName === undefined) {
    ctx.note('Provider presets: ' + presets.map((p) => p.name).join(', '));
    presetName = await ask(ctx.io, 'Provider preset', '--provider-preset');
  }
  const preset = presets.find((p) => p.name === presetName);
  if (!preset) {
    throw usage(`unknown provider preset ${presetName}: one of ${presets.map((p) => p.name).join(', ')}`);
  }
  const name = str(flags.providerName) ?? presetName;
  let baseUrl = str(flags.providerUrl);
  if (baseUrl === undefined && preset.requires_base_url) {
    baseUrl = await ask(ctx.io, 'Provider URL', '--provider-url', preset.default_base_url ?? undefined);
  }
  const key = await apiKey(ctx, flags, preset.auth_type);
  await ctx.progress(`Adding the provider ${name}`, () =>
    unwrap(
      ctx.client.POST('/api/v1/providers/from-preset', {
        body: {
          preset_name: presetName,
          name,
          auth_type: preset.auth_type,
          ...(baseUrl ? { base_url: baseUrl } : {}),
          ...(key ? { api_key: key } : {}),
          ...(flags.trustAddress ? { trust_address: true } : {}),
        },
      }),
    ),
  );
  ctx.note(`Added the provider ${name} (${presetName}).`);
}

async function setup(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  let state = await unwrap(ctx.client.GET('/api/v1/setup/status'));
  if (state.needs_admin) {
    await createCeo(ctx, flags);
  } else if (!ctx.profile.token) {
    throw new CliError('the CEO account exists: sign in first (synthorg login)', ExitCode.Unauthenticated);
  }
  if (state.needs_setup) {
    if (!state.has_company) {
      await createCompany(ctx, flags);
    }
    if (!state.has_providers) {
      await addProvider(ctx, flags);
    }
    await ctx.progress('Completing setup', () => unwrap(ctx.client.POST('/api/v1/setup/complete')));
    ctx.note('Setup is complete.');
  } else {
    ctx.note('Setup was already complete.');
  }
  state = await unwrap(ctx.client.GET('/api/v1/setup/status'));
  ctx.show(state, (s: typeof state) => (s.needs_setup ? 'incomplete' : 'complete'));
}

export function registerSetup(program: Command, r: Registry): void {
  program
    .command('setup')
    .description('first run: the CEO account, the company from a template, a provider from a preset, finish')
    .option('-u, --username <name>', 'CEO account name (first run only; default ceo)')
    .option('--password-stdin', 'read the CEO password from stdin')
    .option('--company <name>', 'company name')
    .option('--description <text>', 'company description')
    .option('--template <name>', 'company template (synthorg setup lists them when asking; default startup)')
    .option('--provider-preset <name>', 'provider preset (anthropic, openai, ollama, lm-studio, …)')
    .option('--provider-name <name>', 'name of the provider (default: the preset name)')
    .option('--provider-url <url>', 'base URL of the provider (local presets)')
    .option('--api-key-file <path>', 'file holding the provider API key (or SYNTHORG_PROVIDER_API_KEY)')
    .option('--trust-address', "trust the provider's private or loopback address (CEO, audited)")
    .addHelpText(
      'after',
      '\nEvery step already done is skipped. Scripted:\n' +
        '  printf %s "$PASSWORD" | synthorg setup --password-stdin --company Acme --template startup \\\n' +
        '      --provider-preset ollama --provider-url http://127.0.0.1:11434 --trust-address\n',
    )
    .action(r.action(setup));
}
