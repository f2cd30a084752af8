import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { z } from 'zod';

import { jsonSetting, pick } from './config-fields';
import type { ConfigSources } from './config-sources';
import { readStoredSettings } from './stored-settings';

const sources = (over: Partial<ConfigSources>): ConfigSources => ({
  env: {},
  yaml: {},
  yamlPath: null,
  yamlError: null,
  cwd: '/',
  ...over,
});

const PORT = {
  setting: 'api.server_port',
  env: 'SYNTHORG_PORT',
  yaml: ['server', 'port'],
  schema: z.coerce.number().int().min(1).max(65535),
  fallback: 8000,
};

describe('boot configuration tiers', () => {
  it('should take the stored value first, then the registry variable, the older variable, YAML, the default', () => {
    const problems: string[] = [];
    const all = {
      stored: new Map([['api.server_port', '9001']]),
      env: { SYNTHORG_API_SERVER_PORT: '9002', SYNTHORG_PORT: '9003' },
      yaml: { server: { port: 9004 } },
    };
    expect(pick(sources(all), PORT, problems)).toBe(9001);
    expect(pick(sources({ ...all, stored: new Map() }), PORT, problems)).toBe(9002);
    expect(pick(sources({ ...all, stored: undefined, env: { SYNTHORG_PORT: '9003' } }), PORT, problems)).toBe(9003);
    expect(pick(sources({ yaml: all.yaml }), PORT, problems)).toBe(9004);
    expect(pick(sources({}), PORT, problems)).toBe(8000);
    expect(problems).toEqual([]);
  });

  it('should skip a stored value that no longer passes, without a startup problem', () => {
    const problems: string[] = [];
    const stored = new Map([['api.server_port', 'not-a-port']]);
    expect(pick(sources({ stored, env: { SYNTHORG_PORT: '9003' } }), PORT, problems)).toBe(9003);
    expect(problems).toEqual([]);
  });

  it('should read a JSON setting from the stored text before the YAML block', () => {
    const yaml = { logging: { custom_sinks: [{ file_path: 'yaml.log' }] } };
    const path = ['logging', 'custom_sinks'];
    const stored = new Map([['observability.custom_sinks', '[{"file_path":"db.log"}]']]);
    expect(jsonSetting(sources({ yaml, stored }), 'observability.custom_sinks', path, [])).toEqual([
      { file_path: 'db.log' },
    ]);
    expect(jsonSetting(sources({ yaml }), 'observability.custom_sinks', path, [])).toEqual([{ file_path: 'yaml.log' }]);
    expect(jsonSetting(sources({}), 'observability.custom_sinks', path, [])).toEqual([]);
  });
});

describe('readStoredSettings on SQLite', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'synthorg-stored-'));
  });

  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const read = (sqlitePath: string) => readStoredSettings({ backend: 'sqlite', sqlitePath, databaseUrl: null });

  it('should find nothing stored in a database that does not exist yet, or has no settings table', async () => {
    const path = join(dir, 'db.sqlite');
    expect(await read(path)).toEqual({ values: new Map(), problem: null });
    const Database = createRequire(__filename)('better-sqlite3') as new (path: string) => {
      exec(sql: string): void;
      close(): void;
    };
    const db = new Database(path);
    db.exec('CREATE TABLE other (x int)');
    db.close();
    expect(await read(path)).toEqual({ values: new Map(), problem: null });
  });

  it('should read the stored texts and leave encrypted ones out', async () => {
    const path = join(dir, 'db.sqlite');
    const Database = createRequire(__filename)('better-sqlite3') as new (path: string) => {
      exec(sql: string): void;
      close(): void;
    };
    const db = new Database(path);
    db.exec(
      `CREATE TABLE "settings" ("namespace" varchar(64), "key" varchar(128), "value" text, "updated_at" datetime);` +
        `INSERT INTO settings VALUES ('api', 'server_port', '9100', '2026-01-01'), ('api', 'ssl_keyfile', 'v1:abc', '2026-01-01');`,
    );
    db.close();
    const stored = await read(path);
    expect(stored.problem).toBeNull();
    expect([...stored.values]).toEqual([['api.server_port', '9100']]);
  });

  it('should report, not throw, when the database cannot be reached', async () => {
    const stored = await readStoredSettings({
      backend: 'postgres',
      sqlitePath: '',
      databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
    });
    expect(stored.values.size).toBe(0);
    expect(stored.problem).toEqual(expect.any(String));
  });
});
