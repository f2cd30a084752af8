import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from 'pg';

const PG_ROOT = '/usr/lib/postgresql';

/** The installed server's binaries (the newest major), or null when there are none. */
export function postgresBinaries(): string | null {
  if (!existsSync(PG_ROOT)) {
    return null;
  }
  const majors = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return majors.length > 0 ? join(PG_ROOT, majors[0], 'bin') : null;
}

/**
 * A Postgres cluster of the test's own, on loopback at `port`: stopped and started at will without
 * touching the shared server other suites use.
 */
export interface PrivatePostgres {
  url: string;
  /** As `createTestDatabase` answers it, for the child-server helpers. */
  database: {
    settings: { backend: 'postgres'; sqlitePath: string; databaseUrl: string };
    env: Record<string, string>;
    drop(): Promise<void>;
  };
  stop(): void;
  start(): void;
  destroy(): void;
}

export async function startPrivatePostgres(port: number): Promise<PrivatePostgres> {
  const bin = postgresBinaries();
  if (!bin) {
    throw new Error('no Postgres server binaries installed');
  }
  const dir = mkdtempSync(join(tmpdir(), 'synthorg-pg-'));
  const data = join(dir, 'data');
  // The server refuses to run as root: there, its binaries run as the postgres user, who owns the directory.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  const exec = (tool: string, args: string[]): void => {
    const [file, argv] = asRoot
      ? ['runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]]
      : [join(bin, tool), args];
    execFileSync(file, argv, { stdio: 'ignore' });
  };
  exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8']);
  const ctl = (...args: string[]): void => exec('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), ...args]);
  const options = `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories=${dir} -c fsync=off`;
  const start = (): void => ctl('start', '-w', '-t', '30', '-o', options);
  start();
  const admin = new Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE synthorg');
  await admin.end();
  const url = `postgres://postgres@127.0.0.1:${port}/synthorg`;
  let stopped = false;
  return {
    url,
    database: {
      settings: { backend: 'postgres', sqlitePath: '', databaseUrl: url },
      env: { SYNTHORG_DATABASE_URL: url },
      drop: () => Promise.resolve(),
    },
    stop: () => {
      ctl('stop', '-w', '-m', 'fast');
      stopped = true;
    },
    start: () => {
      start();
      stopped = false;
    },
    destroy: () => {
      if (!stopped) {
        try {
          ctl('stop', '-w', '-m', 'immediate');
        } catch {
          // already down
        }
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
