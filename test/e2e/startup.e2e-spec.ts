import { type ChildProcess, spawn } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { ConfigError } from '@app/platform';
import { startTestApp, TEST_JWT_SECRET } from '../support';

import { createApp } from '../../apps/api/src/bootstrap';

import { PlatformFixtureModule } from './fixtures/platform-fixture.module';

/** Terminal colour codes, stripped from captured console output before matching. */
const ANSI_ESCAPES = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

function scratchEnv(extra: Record<string, string> = {}): { env: Record<string, string>; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'synthorg-startup-'));
  return {
    dir,
    env: { SYNTHORG_DB_PATH: join(dir, 'db.sqlite'), SYNTHORG_LOG_DIR: join(dir, 'logs'), ...extra },
  };
}

describe('startup rules', () => {
  it('should abort with a clear message when the signing secret is missing', async () => {
    const { env, dir } = scratchEnv();
    try {
      const attempt = createApp({ skipPreflight: true, env, cwd: dir });
      await expect(attempt).rejects.toBeInstanceOf(ConfigError);
      await expect(createApp({ skipPreflight: true, env, cwd: dir })).rejects.toThrow(/SYNTHORG_JWT_SECRET/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should read the signing secret from SYNTHORG_JWT_SECRET_FILE and reject a short one', async () => {
    const { env, dir } = scratchEnv({ SYNTHORG_JWT_SECRET: 'short' });
    try {
      await expect(createApp({ skipPreflight: true, env, cwd: dir })).rejects.toThrow(/at least 32 characters/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ['SYNTHORG_PORT', 'eighty'],
    ['SYNTHORG_PORT', '70000'],
    ['SYNTHORG_DATABASE_URL', 'mysql://x@y/z'],
    ['SYNTHORG_DEV_AUTH_BYPASS', 'maybe'],
    ['SYNTHORG_LOG_LEVEL', 'verbose'],
    ['SYNTHORG_DB_POOL_SIZE', '0'],
    ['SYNTHORG_DB_POOL_MIN_IDLE', '11'],
  ])('should stop startup naming %s when it is malformed (%s)', async (name, value) => {
    const { env, dir } = scratchEnv({ SYNTHORG_JWT_SECRET: TEST_JWT_SECRET, [name]: value });
    try {
      await expect(createApp({ skipPreflight: true, env, cwd: dir })).rejects.toThrow(new RegExp(name));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('should complete startup with persistence unreachable and answer 503 where it is needed', async () => {
    const t = await startTestApp({
      extraImports: [PlatformFixtureModule],
      env: { SYNTHORG_DATABASE_URL: 'postgres://postgres@127.0.0.1:9/unreachable' },
    });
    try {
      const health = await t.http.get('/api/v1/health').expect(200);
      expect(health.body.data).toMatchObject({
        status: 'down',
        persistence: false,
        persistence_detail: { backend: 'postgres' },
      });
      const ready = await t.http.get('/api/v1/health/ready').expect(503);
      expect(ready.body.error_detail).toMatchObject({ error_code: 8001, retryable: true });
      await t.http.get('/api/v1/health/live').expect(200);
      const feature = await t.http.get('/api/v1/fixtures/needs-persistence').expect(503);
      expect(feature.body.error_detail.error_code).toBe(8001);
      await t.logging.flush();
      expect(t.consoleLines().some((l) => l.includes('persistence.database.connect_failed'))).toBe(true);
    } finally {
      await t.close();
    }
  });

  it('should log a prominent security warning when the dev auth bypass is on', async () => {
    const t = await startTestApp({ env: { SYNTHORG_DEV_AUTH_BYPASS: 'true' } });
    try {
      await t.logging.flush();
      const warning = t.consoleLines().find((l) => l.includes('security.dev_auth_bypass.enabled'));
      expect(warning).toBeDefined();
      expect(warning).toMatch(/WARN/);
    } finally {
      await t.close();
    }
  });
});

describe('graceful shutdown of the built server', () => {
  const main = resolve(__dirname, '../../dist/apps/api/src/main.js');
  let child: ChildProcess | undefined;
  let dir: string;

  afterEach(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('should drain an in-flight request, then exit 0 on SIGTERM', async () => {
    if (!existsSync(main)) {
      throw new Error(`${main} does not exist: run npm run build first`);
    }
    ({ dir } = scratchEnv());
    const proc = spawn(process.execPath, [main], {
      cwd: dir,
      env: {
        ...process.env,
        SYNTHORG_JWT_SECRET: TEST_JWT_SECRET,
        SYNTHORG_PORT: '0',
        SYNTHORG_DB_PATH: join(dir, 'db.sqlite'),
        SYNTHORG_LOG_DIR: join(dir, 'logs'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = proc;
    let output = '';
    const port = await new Promise<number>((resolvePort, reject) => {
      const timer = setTimeout(() => reject(new Error(`no start within 20 s:\n${output}`)), 20_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const match = /api\.server\.started[\s\S]*?port[^0-9]*(\d+)/.exec(output.replace(ANSI_ESCAPES, ''));
        if (match) {
          clearTimeout(timer);
          resolvePort(Number(match[1]));
        }
      };
      proc.stdout.on('data', onData);
      proc.stderr.on('data', onData);
      proc.once('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
    });
    const base = `http://127.0.0.1:${port}/api/v1`;
    expect((await fetch(`${base}/health/ready`)).status).toBe(200);
    const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
    // An in-flight request: its body is still being uploaded when SIGTERM arrives.
    const inFlight = new Promise<{ status: number; body: string }>((done, reject) => {
      const req = request(
        `${base}/fixtures-absent`,
        { method: 'POST', headers: { 'Content-Type': 'application/json' } },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => done({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.write('{"name":');
      setTimeout(() => {
        proc.kill('SIGTERM');
        setTimeout(() => req.end('"x"}'), 300);
      }, 100);
    });
    const res = await inFlight;
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ success: false, error_detail: { error_code: 3002 } });
    const code = await Promise.race([exited, new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 15_000))]);
    expect(code).toBe(0);
    expect(output).toContain('api.shutdown.started');
    // The sinks run on their own thread in the server: shutdown drains it before the process exits.
    const access = readFileSync(join(dir, 'logs', 'access.log'), 'utf8');
    expect(access).toContain('"url":"/api/v1/fixtures-absent"');
  }, 40_000);
});
