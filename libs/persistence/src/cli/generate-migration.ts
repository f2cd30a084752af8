// `npm run migration:generate -- <Name>`: writes a migration for BOTH dialects from the difference
// between the entities and the schema the existing migrations build (a fresh SQLite file and a fresh
// Postgres database, SYNTHORG_TEST_PG_URL as the admin connection), and registers it in each index.
import 'reflect-metadata';

import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { Client } from 'pg';
import type { DataSource } from 'typeorm';

import { createDataSource, type PersistenceBackend } from '../data-source.factory';
import { runMigrations } from '../migrate';

const ADMIN_URL = process.env.SYNTHORG_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function withDatabase<T>(backend: PersistenceBackend, fn: (ds: DataSource) => Promise<T>): Promise<T> {
  if (backend === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'synthorg-gen-'));
    const ds = await createDataSource({ backend, sqlitePath: join(dir, 'gen.db'), databaseUrl: null }).initialize();
    try {
      return await fn(ds);
    } finally {
      await ds.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const name = `synthorg_gen_${Date.now()}`;
  const admin = new Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const ds = await createDataSource({ backend, sqlitePath: '', databaseUrl: url.toString() }).initialize();
  try {
    return await fn(ds);
  } finally {
    await ds.destroy();
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.end();
  }
}

function render(className: string, up: string[], down: string[]): string {
  const lines = (queries: string[]) =>
    queries.map((q) => `    await queryRunner.query(${JSON.stringify(q)});`).join('\n');
  return `import type { MigrationInterface, QueryRunner } from 'typeorm';

export class ${className} implements MigrationInterface {
  name = '${className}';

  async up(queryRunner: QueryRunner): Promise<void> {
${lines(up)}
  }

  async down(queryRunner: QueryRunner): Promise<void> {
${lines(down)}
  }
}
`;
}

async function main(): Promise<void> {
  const name = process.argv[2];
  if (!name || !/^[A-Z][A-Za-z0-9]+$/.test(name)) {
    throw new Error('usage: migration:generate <PascalCaseName>');
  }
  const stamp = Date.now();
  const className = `${name}${stamp}`;
  const kebab = name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
  const root = resolve(process.cwd(), 'libs/persistence/migrations');
  for (const backend of ['sqlite', 'postgres'] as const) {
    const log = await withDatabase(backend, async (ds) => {
      await runMigrations(ds);
      return ds.driver.createSchemaBuilder().log();
    });
    if (log.upQueries.length === 0) {
      process.stdout.write(`${backend}: no changes\n`);
      continue;
    }
    const up = log.upQueries.map((q) => q.query);
    const down = log.downQueries.map((q) => q.query).reverse();
    const file = `${stamp}-${kebab}`;
    writeFileSync(join(root, backend, `${file}.ts`), render(className, up, down));
    const index = join(root, backend, 'index.ts');
    const text = readFileSync(index, 'utf8')
      .replace(/^(import .*\n)(?!import)/m, `$1import { ${className} } from './${file}';\n`)
      .replace(/,?\s*\];\s*$/, `,\n  ${className},\n];\n`);
    writeFileSync(index, text);
    appendFileSync(index, '');
    process.stdout.write(`${backend}: wrote ${file}.ts (${up.length} statements)\n`);
  }
}

void main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
