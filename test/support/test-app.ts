import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';

import type { DynamicModule, Type } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type TestAgent from 'supertest/lib/agent';

import type { PersistenceBackend } from '@app/persistence';
import { type AppConfig, type LoggingRuntime, StartupResumeHooks } from '@app/platform';
import { createTestDatabase, type TestDatabase } from '@app/testing';

import { createApp, stopApp } from '../../apps/api/src/bootstrap';

export const TEST_JWT_SECRET = 'test-signing-secret-0123456789-abcdefghijklmnop';

export interface TestAppOptions {
  backend?: PersistenceBackend;
  env?: Record<string, string>;
  extraImports?: Array<Type<unknown> | DynamicModule>;
  /** Listen on an ephemeral loopback port (WebSocket tests); otherwise supertest drives the server. */
  listen?: boolean;
  /** Reuse an existing database (two app instances on one database). */
  database?: TestDatabase;
}

export interface TestApp {
  app: NestExpressApplication;
  config: AppConfig;
  logging: LoggingRuntime;
  http: TestAgent;
  db: TestDatabase;
  logDir: string;
  /** Console sink output captured as parsed lines (plain text, one event per line). */
  consoleLines(): string[];
  /** Base URL when listening. */
  url: string | null;
  close(): Promise<void>;
}

/** The whole application on a fresh database, as the server runs it, for e2e tests. */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const backend = options.backend ?? 'sqlite';
  const ownDb = options.database === undefined;
  const db = options.database ?? (await createTestDatabase(backend));
  const logDir = mkdtempSync(join(tmpdir(), 'synthorg-logs-'));
  const consoleStream = new PassThrough();
  const captured: string[] = [];
  consoleStream.on('data', (chunk: Buffer) => captured.push(...chunk.toString('utf8').split('\n').filter(Boolean)));
  const created = await createApp({
    skipPreflight: true,
    cwd: logDir,
    env: {
      SYNTHORG_JWT_SECRET: TEST_JWT_SECRET,
      SYNTHORG_LOG_DIR: logDir,
      SYNTHORG_ENV: 'test',
      // Backups of a test app stay beside its logs and go with them.
      SYNTHORG_BACKUP_PATH: join(logDir, 'backups'),
      // No company or daily spending limits unless a spec sets them (the fake provider's prices add up).
      SYNTHORG_BUDGET_TOTAL_MONTHLY: '0',
      SYNTHORG_BUDGET_PER_AGENT_DAILY_LIMIT: '0',
      // The fake provider listens on loopback; specs of the address checks turn them back on.
      SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'false',
      // No web console unless a spec points at one: answers stay the same whether or not it was built.
      SYNTHORG_WEB_DIR: '',
      ...db.env,
      ...options.env,
    },
    consoleDestination: consoleStream,
    extraImports: options.extraImports,
  });
  let url: string | null = null;
  if (options.listen) {
    await created.app.listen(0, '127.0.0.1');
    const address = created.app.getHttpServer().address();
    url = typeof address === 'object' && address ? `http://127.0.0.1:${address.port}` : null;
  } else {
    await created.app.init();
  }
  await created.app.get(StartupResumeHooks).runAll();
  let closed = false;
  return {
    ...created,
    http: request(created.app.getHttpServer()),
    db,
    logDir,
    url,
    consoleLines: () => [...captured],
    close: async () => {
      if (closed) {
        return;
      }
      closed = true;
      await stopApp(created);
      if (ownDb) {
        await db.drop();
      }
      rmSync(logDir, { recursive: true, force: true });
    },
  };
}
