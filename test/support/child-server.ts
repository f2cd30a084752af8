import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { type TestDatabase } from '@app/testing';

import { TEST_JWT_SECRET } from './test-app';

const MAIN = resolve(__dirname, '../../dist/apps/api/src/main.js');
const ANSI = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

/** The built server running as a child process, so that it can be killed like a crashed pod. */
export interface ChildServer {
  proc: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  url: string;
  output(): string;
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts dist/ (run `npm run build` first) on `db`, with its data and logs under `dir`. */
export async function startChildServer(
  dir: string,
  db: TestDatabase,
  extra: Record<string, string> = {},
): Promise<ChildServer> {
  if (!existsSync(MAIN)) {
    throw new Error(`${MAIN} does not exist: run npm run build first`);
  }
  const proc = spawn(process.execPath, [MAIN], {
    cwd: dir,
    env: {
      ...process.env,
      ...db.env,
      SYNTHORG_JWT_SECRET: TEST_JWT_SECRET,
      SYNTHORG_PORT: '0',
      SYNTHORG_LOG_DIR: join(dir, 'logs'),
      SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '1000000',
      SYNTHORG_ENGINE_HEARTBEAT_SECONDS: '1',
      SYNTHORG_BUDGET_TOTAL_MONTHLY: '0',
      SYNTHORG_BUDGET_PER_AGENT_DAILY_LIMIT: '0',
      // The fake provider listens on loopback.
      SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'false',
      ...extra,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((done) => proc.once('exit', (code) => done(code)));
  const port = await new Promise<number>((resolvePort, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString();
      const match = /api\.server\.started[\s\S]*?port[^0-9]*(\d+)/.exec(output.replace(ANSI, ''));
      if (match) {
        clearTimeout(timer);
        resolvePort(Number(match[1]));
      }
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
  return {
    proc,
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    kill: async (signal = 'SIGKILL') => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill(signal);
      }
      await exited;
    },
  };
}
