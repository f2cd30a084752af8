// `node dist/apps/api/src/migrate.js` (`npm run migrate`): applies the pending migrations of the
// configured backend and exits. It reads the database location the way the server does
// (environment, then the YAML configuration file) and needs nothing else of its configuration.
// Exit codes: 0 done (or, with --check, the schema is current); 1 failure; 3 (--check) migrations pending.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

import { Command } from 'commander';

import { createDataSource, pendingMigrations, runMigrations } from '@app/persistence';
import { buildPersistenceConfig, ConfigError, readConfigSources } from '@app/platform';

export const EXIT_PENDING = 3;

export interface MigrateOutcome {
  backend: 'sqlite' | 'postgres';
  applied: string[];
  pending: string[];
}

/** Connects, applies (or with `check` only lists) the pending migrations, and disconnects. */
export async function migrate(env: NodeJS.ProcessEnv, cwd: string, check: boolean): Promise<MigrateOutcome> {
  const config = buildPersistenceConfig(readConfigSources(env, cwd));
  const source = createDataSource({
    backend: config.backend,
    sqlitePath: config.sqlitePath,
    databaseUrl: config.databaseUrl,
    preparedStatements: false,
    pool: { size: 2, minIdle: 0, idleSeconds: 1 },
    applicationName: 'synthorg-migrate',
  });
  if (config.backend === 'sqlite' && config.sqlitePath !== ':memory:') {
    await mkdir(dirname(config.sqlitePath), { recursive: true });
  }
  await source.initialize();
  try {
    if (check) {
      return { backend: config.backend, applied: [], pending: await pendingMigrations(source) };
    }
    const applied = await runMigrations(source);
    return { backend: config.backend, applied: applied.map((m) => m.name), pending: [] };
  } finally {
    await source.destroy();
  }
}

async function main(argv: string[]): Promise<void> {
  const program = new Command('migrate')
    .description('Apply the pending database migrations of the configured backend, then exit.')
    .option('--check', `only report pending migrations (exit ${EXIT_PENDING} when there are any)`, false)
    .parse(argv);
  const { check } = program.opts<{ check: boolean }>();
  try {
    const outcome = await migrate(process.env, process.cwd(), check);
    if (check) {
      const pending = outcome.pending;
      process.stdout.write(
        pending.length === 0
          ? `synthorg: migrate: ${outcome.backend} schema is current\n`
          : `synthorg: migrate: ${outcome.backend} schema is behind: ${pending.length} pending: ${pending.join(', ')}\n`,
      );
      process.exit(pending.length === 0 ? 0 : EXIT_PENDING);
    }
    process.stdout.write(
      outcome.applied.length === 0
        ? `synthorg: migrate: ${outcome.backend} schema is current, nothing to apply\n`
        : `synthorg: migrate: applied ${outcome.applied.length} migration(s) on ${outcome.backend}: ${outcome.applied.join(', ')}\n`,
    );
    process.exit(0);
  } catch (error) {
    const message =
      error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
    process.stderr.write(`synthorg: migrate failed: ${message}\n`);
    process.exit(1);
  }
}

if (require.main === module) {
  void main(process.argv);
}
