import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { createTestDatabase, eventually, type TestDatabase, testBackends } from '@app/testing';
import { type ChildServer, startChildServer } from '../support';

jest.setTimeout(90_000);

const MIGRATE = resolve(__dirname, '../../dist/apps/api/src/migrate.js');

interface Exit {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built migrate command with `env` (no signing secret: it does not need one). */
function runMigrate(env: Record<string, string>, args: string[] = []): Promise<Exit> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SYNTHORG_')));
  return new Promise((done) => {
    execFile(
      process.execPath,
      [MIGRATE, ...args],
      { env: { ...clean, ...env }, cwd: tmpdir(), timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        done({ code, stdout, stderr });
      },
    );
  });
}

describe.each(testBackends())('the migrate command on %s', (backend) => {
  let db: TestDatabase;
  let dir: string;
  let server: ChildServer | null = null;

  beforeEach(async () => {
    db = await createTestDatabase(backend);
    dir = mkdtempSync(join(tmpdir(), 'synthorg-migrate-'));
  });

  afterEach(async () => {
    await server?.kill('SIGKILL');
    server = null;
    await db.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should report pending migrations with --check, apply them, and then find nothing to apply', async () => {
    const before = await runMigrate(db.env, ['--check']);
    expect(before.code).toBe(3);
    expect(before.stdout).toMatch(new RegExp(`${backend} schema is behind: \\d+ pending: InitialSchema`));
    const applied = await runMigrate(db.env);
    expect(applied.code).toBe(0);
    expect(applied.stdout).toMatch(new RegExp(`applied \\d+ migration\\(s\\) on ${backend}: InitialSchema`));
    const again = await runMigrate(db.env);
    expect(again).toMatchObject({ code: 0, stdout: expect.stringContaining('nothing to apply') });
    expect((await runMigrate(db.env, ['--check'])).code).toBe(0);
  });

  it('should keep a replica unready on a schema that is behind until the command has run', async () => {
    server = await startChildServer(dir, db, { SYNTHORG_DB_MIGRATE_ON_START: 'false' });
    const ready = (): Promise<number> => fetch(`${server!.url}/api/v1/health/ready`).then((res) => res.status);
    expect(await ready()).toBe(503);
    await eventually(
      () => Promise.resolve(server!.output()),
      (out) => out.includes('the database schema is behind this version'),
    );
    expect((await runMigrate(db.env)).code).toBe(0);
    // The connection is retried with backoff (1, 2, 4 … s): the replica becomes ready without a restart.
    await eventually(ready, (status) => status === 200, 30_000, 200);
  });
});

describe('the migrate command', () => {
  it('should exit 1 with a clear message when the database cannot be reached', async () => {
    const result = await runMigrate({ SYNTHORG_DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^synthorg: migrate failed: .*ECONNREFUSED/m);
  });

  it('should exit 1 naming the variable when the configuration is malformed', async () => {
    const result = await runMigrate({ SYNTHORG_DATABASE_URL: 'mysql://x@y/z' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('SYNTHORG_DATABASE_URL');
  });
});
