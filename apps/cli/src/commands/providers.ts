// providers list|show|presets|add|test|discover|remove
import { readFileSync } from 'node:fs';

import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, paging, unwrap, unwrapPage } from '../context';
import { CliError, ExitCode } from '../errors';
import type { Column } from '../output';
import type { Flags, Registry } from '../program';
import { listFlags } from './tasks';

type Provider = Schemas['ProviderResponse'];
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const byName = (name: string) => ({ params: { path: { name } } });

const COLUMNS: Column<Provider>[] = [
  { header: 'NAME', value: (p) => p.name },
  { header: 'DRIVER', value: (p) => p.driver },
  { header: 'AUTH', value: (p) => p.auth_type },
  { header: 'BASE URL', value: (p) => p.base_url },
  { header: 'MODELS', value: (p) => p.models.map((m) => m.id) },
  { header: 'PRESET', value: (p) => p.preset_name },
];

async function list(ctx: Context, _args: string[], flags: Flags): Promise<void> {
  const page = await unwrapPage(ctx.client.GET('/api/v1/providers', { params: { query: paging(flags) } }));
  ctx.list(page.items, COLUMNS, (p) => p.name, page.total);
}

async function show(ctx: Context, [name]: string[]): Promise<void> {
  const provider = await unwrap(ctx.client.GET('/api/v1/providers/{name}', byName(name)));
  ctx.show(provider, (p: Provider) => p.name);
}

async function presets(ctx: Context): Promise<void> {
  const all = await unwrap(ctx.client.GET('/api/v1/providers/presets'));
  ctx.list(
    all,
    [
      { header: 'PRESET', value: (p) => p.name },
      { header: 'NAME', value: (p) => p.display_name },
      { header: 'AUTH', value: (p) => p.supported_auth_types },
      { header: 'DEFAULT URL', value: (p) => p.default_base_url },
    ],
    (p) => p.name,
  );
}

function secretFrom(ctx: Context, flags: Flags): string | undefined {
  const file = str(flags.apiKeyFile);
  if (file) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (error) {
      throw new CliError(`cannot read --api-key-file: ${(error as Error).message}`, ExitCode.Usage);
    }
  }
  return ctx.io.env.SYNTHORG_PROVIDER_API_KEY || undefined;
}

/** `--model id[:alias]`, repeatable. */
function models(flags: Flags): { id: string; alias?: string }[] | undefined {
  const raw = flags.model;
  if (!Array.isArray(raw) || raw.length === 0) {
    return undefined;
  }
  return raw.map((entry) => {
    const [id, alias] = entry.split(':');
    return alias ? { id, alias } : { id };
  });
}

async function add(ctx: Context, [name]: string[], flags: Flags): Promise<void> {
  const apiKey = secretFrom(ctx, flags);
  const common = {
    name,
    ...(str(flags.baseUrl) ? { base_url: str(flags.baseUrl) } : {}),
    ...(str(flags.authType) ? { auth_type: str(flags.authType) } : {}),
    ...(apiKey ? { api_key: apiKey } : {}),
    ...(models(flags) ? { models: models(flags) } : {}),
    ...(flags.trustAddress ? { trust_address: true } : {}),
  };
  const provider = await ctx.progress(`Adding the provider ${name}`, () =>
    str(flags.preset)
      ? unwrap(
          ctx.client.POST('/api/v1/providers/from-preset', {
            body: { ...common, preset_name: str(flags.preset) } as never,
          }),
        )
      : unwrap(
          ctx.client.POST('/api/v1/providers', {
            body: {
              ...common,
              ...(str(flags.gatewayProvider) ? { gateway_provider: str(flags.gatewayProvider) } : {}),
            } as never,
          }),
        ),
  );
  ctx.done(`Added the provider ${provider.name} (${provider.models.length} models).`, provider, provider.name);
}

async function test(ctx: Context, [name]: string[], flags: Flags): Promise<void> {
  const result = await ctx.progress(`Testing ${name}`, () =>
    unwrap(
      ctx.client.POST('/api/v1/providers/{name}/test', {
        ...byName(name),
        body: str(flags.model) ? { model: str(flags.model) } : {},
      }),
    ),
  );
  ctx.show(result, (t: typeof result) => (t.success ? 'ok' : 'failed'));
  if (!result.success) {
    throw new CliError(
      `the provider did not answer: ${result.error ?? 'unknown error'}`,
      ExitCode.ApiError,
      result.error_code ?? null,
    );
  }
}

async function discover(ctx: Context, [name]: string[]): Promise<void> {
  const result = await ctx.progress(`Discovering the models of ${name}`, () =>
    unwrap(ctx.client.POST('/api/v1/providers/{name}/discover-models', byName(name))),
  );
  ctx.list(result.discovered_models, [{ header: 'NEW MODEL', value: (m) => m }], (m) => m);
}

async function remove(ctx: Context, [name]: string[]): Promise<void> {
  await unwrap(ctx.client.DELETE('/api/v1/providers/{name}', byName(name)));
  ctx.done(`Removed the provider ${name}.`, { name, removed: true }, name);
}

export function registerProviders(program: Command, r: Registry): void {
  const providers = program.command('providers').description('model providers: register, test, discover models');
  listFlags(providers.command('list').description('registered providers (secrets never shown)')).action(r.action(list));
  providers.command('show').description('one provider').argument('<name>', 'provider name').action(r.action(show));
  providers.command('presets').description('the built-in presets `add --preset` accepts').action(r.action(presets));
  providers
    .command('add')
    .description('register a provider, from a preset or by hand')
    .argument('<name>', 'provider name')
    .option('--preset <name>', 'start from this preset (synthorg providers presets)')
    .option('--base-url <url>', 'base URL of its API')
    .option('--auth-type <type>', 'api_key, oauth, custom_header, subscription, none')
    .option('--gateway-provider <name>', 'protocol without a preset: openai, anthropic, ollama, …')
    .option('--api-key-file <path>', 'file holding the API key (or SYNTHORG_PROVIDER_API_KEY); never a flag value')
    .option('--model <id[:alias]>', 'a model it serves (repeatable)', (value: string, previous: string[] = []) => [
      ...previous,
      value,
    ])
    .option('--trust-address', 'trust a private or loopback address (CEO, audited)')
    .action(r.action(add));
  providers
    .command('test')
    .description('send a minimal probe call; exit 1 when it fails')
    .argument('<name>', 'provider name')
    .option('--model <id>', 'the model to call (default: its first)')
    .action(r.action(test));
  providers
    .command('discover')
    .description("query the provider's model list and add the new models")
    .argument('<name>', 'provider name')
    .action(r.action(discover));
  providers
    .command('remove')
    .description('remove a provider (exit 5 while agents use its models)')
    .argument('<name>', 'provider name')
    .action(r.action(remove));
}
