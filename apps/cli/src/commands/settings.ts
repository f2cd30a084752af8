// settings list [NAMESPACE]|get NS KEY|set NS KEY VALUE|reset NS KEY, settings schema [NAMESPACE]
import type { Command } from 'commander';

import type { Schemas } from '@app/client';

import { type Context, unwrap } from '../context';
import type { Column } from '../output';
import type { Registry } from '../program';

type Entry = Schemas['SettingEntry'];
type Definition = Schemas['SettingDefinition'];

const ENTRIES: Column<Entry>[] = [
  { header: 'SETTING', value: (e) => `${e.definition.namespace}.${e.definition.key}` },
  { header: 'VALUE', value: (e) => (e.definition.sensitive ? '********' : e.value) },
  { header: 'SOURCE', value: (e) => e.source },
  { header: 'RESTART', value: (e) => (e.pending_restart ? 'pending' : '') },
];

const DEFINITIONS: Column<Definition>[] = [
  { header: 'SETTING', value: (d) => `${d.namespace}.${d.key}` },
  { header: 'TYPE', value: (d) => d.type },
  { header: 'DEFAULT', value: (d) => d.default },
  { header: 'RESTART', value: (d) => (d.restart_required ? 'yes' : '') },
  { header: 'DESCRIPTION', value: (d) => d.description },
];

const id = (e: Entry) => `${e.definition.namespace}.${e.definition.key}`;
const keyPath = (namespace: string, key: string) => ({ params: { path: { namespace, key } } });

async function list(ctx: Context, [namespace]: string[]): Promise<void> {
  const entries = namespace
    ? await unwrap(ctx.client.GET('/api/v1/settings/{namespace}', { params: { path: { namespace } } }))
    : await unwrap(ctx.client.GET('/api/v1/settings'));
  ctx.list(entries, ENTRIES, id);
}

async function get(ctx: Context, [namespace, key]: string[]): Promise<void> {
  const entry = await unwrap(ctx.client.GET('/api/v1/settings/{namespace}/{key}', keyPath(namespace, key)));
  ctx.show(
    entry,
    (e: Entry) => e.value,
    (e: Entry) => ({
      setting: id(e),
      value: e.definition.sensitive ? '********' : e.value,
      source: e.source,
      updated_at: e.updated_at,
      pending_restart: e.pending_restart,
      type: e.definition.type,
      default: e.definition.default,
      description: e.definition.description,
    }),
  );
}

async function set(ctx: Context, [namespace, key, value]: string[]): Promise<void> {
  const entry = await unwrap(
    ctx.client.PUT('/api/v1/settings/{namespace}/{key}', { ...keyPath(namespace, key), body: { value } }),
  );
  const restart = entry.pending_restart ? ' (applies after a restart)' : '';
  ctx.done(
    `${id(entry)} = ${entry.definition.sensitive ? '********' : String(entry.value)}${restart}`,
    entry,
    id(entry),
  );
}

async function reset(ctx: Context, [namespace, key]: string[]): Promise<void> {
  await unwrap(ctx.client.DELETE('/api/v1/settings/{namespace}/{key}', keyPath(namespace, key)));
  ctx.done(
    `${namespace}.${key} is back to its environment, YAML or default value.`,
    { namespace, key, reset: true },
    `${namespace}.${key}`,
  );
}

async function schema(ctx: Context, [namespace]: string[]): Promise<void> {
  const definitions = namespace
    ? await unwrap(ctx.client.GET('/api/v1/settings/_schema/{namespace}', { params: { path: { namespace } } }))
    : await unwrap(ctx.client.GET('/api/v1/settings/_schema'));
  ctx.list(definitions, DEFINITIONS, (d) => `${d.namespace}.${d.key}`);
}

export function registerSettings(program: Command, r: Registry): void {
  const settings = program.command('settings').description('runtime settings: values, sources, definitions');
  settings
    .command('list')
    .description('every setting (or one namespace) with its value and source')
    .argument('[namespace]', 'e.g. budget, security, backup, engine')
    .action(r.action(list));
  settings.command('get').description('one setting').argument('<namespace>').argument('<key>').action(r.action(get));
  settings
    .command('set')
    .description('store a value (a restart-required one applies after a restart)')
    .argument('<namespace>')
    .argument('<key>')
    .argument('<value>', 'the value as text (numbers, true/false, JSON for lists)')
    .action(r.action(set));
  settings
    .command('reset')
    .description('remove the stored value: the environment, YAML or default applies again')
    .argument('<namespace>')
    .argument('<key>')
    .action(r.action(reset));
  settings
    .command('schema')
    .description('setting definitions: type, default, range, restart')
    .argument('[namespace]', 'only this namespace')
    .action(r.action(schema));
}
