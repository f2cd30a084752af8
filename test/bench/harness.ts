import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';

import { join, resolve } from 'node:path';

import autocannon from 'autocannon';

/** Terminal colour codes, stripped from captured console output before matching. */
const ANSI_ESCAPES = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
  /** The server process answering it: its CPU time per request is measured when given (Linux). */
  pid?: number;
}

export interface Sample {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
  /** The server's CPU time (all its threads, user and system) per request, in microseconds. */
  cpuUsPerRequest?: number;
}

export interface RunningServer {
  port: number;
  child: ChildProcess;
  output: () => string;
  stop(): Promise<void>;
}

export interface SpawnOptions {
  /** Where the service resolves its relative paths (data/, logs/); default: this process's. */
  cwd?: string;
  /** Keep the last 16 KiB the server writes after it started (its crash report), in `output()`. */
  keepTail?: boolean;
  /**
   * Send the server's stdout and stderr to this file instead of a pipe to this process. The load
   * generator runs here: reading a logging server's console through a pipe would bill the
   * generator's event loop for the server's log volume.
   */
  outputFile?: string;
}

/** Spawns a server script that prints `LISTENING <port>` (or the service's own start log) and waits for it. */
/** The signing secret of every service a bench starts. */
export const BENCH_JWT_SECRET = 'bench-only-signing-secret-0123456789abcdefghij';

const SERVICE_MAIN = resolve(__dirname, '..', '..', 'apps/api/src/main.js');

/**
 * The built service on `db` with its workspace in `scratch` and its output in `scratch/service.out`
 * (never read by the load generator): the usual start of a bench that needs nothing else.
 */
export function startScratchService(scratch: string, db: { env: Record<string, string> }): Promise<RunningServer> {
  return startBenchService(
    scratch,
    db,
    { SYNTHORG_WORKSPACE_DIR: join(scratch, 'workspace') },
    { outputFile: join(scratch, 'service.out') },
  );
}

/**
 * The end of a bench part, whatever happened in it: its service stopped, its database dropped and
 * its scratch directory removed. Never throws, so a failed clean-up cannot hide the part's result.
 */
export async function releaseScratch(part: {
  server: RunningServer | null;
  db: { drop(): Promise<void> } | null;
  scratch: string;
}): Promise<void> {
  await part.server?.stop().catch(() => undefined);
  await part.db?.drop().catch(() => undefined);
  rmSync(part.scratch, { recursive: true, force: true });
}

/**
 * The built service on `db`, its logs under `scratch`, with the request limits that would throttle
 * a load generator lifted, the address checks off for the loopback fake provider, and no
 * configuration file; `extra` adds or overrides variables, and the
 * database comes from `db` alone (never from this process's environment).
 */
export function startBenchService(
  scratch: string,
  db: { env: Record<string, string> },
  extra: Record<string, string> = {},
  options: SpawnOptions & { nodeFlags?: string[] } = { cwd: scratch, keepTail: true },
): Promise<RunningServer> {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.SYNTHORG_DATABASE_URL;
  delete env.SYNTHORG_DB_PATH;
  const { nodeFlags = [], ...spawnOptions } = options;
  return spawnServer(
    [...nodeFlags, SERVICE_MAIN],
    {
      ...env,
      ...db.env,
      SYNTHORG_PORT: '0',
      SYNTHORG_LOG_DIR: join(scratch, 'logs'),
      SYNTHORG_JWT_SECRET: BENCH_JWT_SECRET,
      SYNTHORG_CONFIG_FILE: '',
      SYNTHORG_RATE_LIMIT_AUTHENTICATED_PER_MINUTE: '1000000',
      SYNTHORG_RATE_LIMIT_ANONYMOUS_PER_MINUTE: '100000',
      // The fake model provider listens on loopback, which the address checks refuse by default.
      SYNTHORG_DISCOVERY_BLOCK_PRIVATE_IPS: 'false',
      ...extra,
    },
    60_000,
    spawnOptions,
  );
}

/**
 * The runtime flags the service runs with in production (`npm start`, `npm run start:prod`, the
 * image's CMD): every server a bench starts gets them, the reference servers included, so that
 * ratios compare like with like. A young generation of 16 MB per semi-space keeps each scavenge
 * short; the larger default that recent V8 sizes from the machine's memory made the tail latency of
 * big list pages three times worse.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=16'];

export function spawnServer(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 30_000,
  options: SpawnOptions = {},
): Promise<RunningServer> {
  if (options.outputFile) {
    return spawnToFile(args, env, timeoutMs, options.outputFile, options.cwd);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...args], {
      env,
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const tail: Buffer[] = [];
    let tailBytes = 0;
    const keep = (chunk: Buffer): void => {
      tail.push(chunk);
      tailBytes += chunk.length;
      while (tail.length > 1 && tailBytes - (tail[0]?.length ?? 0) >= 16_384) {
        tailBytes -= tail.shift()?.length ?? 0;
      }
    };
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${timeoutMs} ms:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer): void => {
      // Only the startup output matters; the servers' request logs are drained, not accumulated
      // (the service logs every request, and the load generator runs in this process).
      out = (out + chunk.toString()).slice(-8192);
      const match = listeningPort(out);
      if (match) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stderr?.off('data', onData);
        if (options.keepTail) {
          child.stdout?.on('data', keep);
          child.stderr?.on('data', keep);
        }
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({
          port: match,
          child,
          output: () => (tail.length > 0 ? `${out}\n[...]\n${Buffer.concat(tail).toString().slice(-16_384)}` : out),
          stop: () => stopChild(child),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited early (${code}):\n${out.slice(-2000)}`));
    });
  });
}

/** The port a server announced in its output (`LISTENING <port>` or the service's start log), if yet. */
function listeningPort(output: string): number | undefined {
  const plain = output.replace(ANSI_ESCAPES, '');
  // The digits must be followed by something: a chunk may end inside the port number.
  const match = /LISTENING (\d+)\D/.exec(plain) ?? /api\.server\.started[\s\S]*?port[^0-9]*(\d+)\D/.exec(plain);
  return match ? Number(match[1]) : undefined;
}

function stopChild(child: ChildProcess): Promise<void> {
  return new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      done(); // already gone (crashed): 'exit' will not fire again
      return;
    }
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
  });
}

/** spawnServer with the output in a file: startup is seen by polling the file's head. */
async function spawnToFile(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  file: string,
  cwd: string | undefined,
): Promise<RunningServer> {
  const fd = openSync(file, 'w');
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, ...args], { env, cwd, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  const head = (): string => {
    const text = readFileSync(file, 'utf8');
    return text.length > 65_536 ? text.slice(0, 65_536) : text;
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const port = listeningPort(head());
    if (port !== undefined) {
      return {
        port,
        child,
        output: () => {
          const text = readFileSync(file, 'utf8');
          return text.length > 16_384 ? `[...]\n${text.slice(-16_384)}` : text;
        },
        stop: () => stopChild(child),
      };
    }
    if (child.exitCode !== null || child.signalCode !== null || Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`server did not start (exit ${String(child.exitCode)}):\n${head().slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on every Linux this runs on). */
const USER_HZ = 100;

/**
 * A process's CPU time so far in milliseconds (all threads, user and system), from /proc; undefined
 * where /proc is not there to read.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

/**
 * Loads `target` with `connections` closed-loop clients for `seconds`. With `nextPath`, every
 * request asks for the path it returns (of the target's origin) instead of the target's own.
 */
export async function load(
  target: Target,
  seconds: number,
  connections: number,
  nextPath?: () => string,
): Promise<Sample> {
  const cpuBefore = target.pid === undefined ? undefined : processCpuMs(target.pid);
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    headers: target.headers,
    pipelining: 1,
    ...(nextPath ? { requests: [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }] } : {}),
  });
  const cpuAfter = target.pid === undefined ? undefined : processCpuMs(target.pid);
  const answered = result.requests.total;
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    cpuUsPerRequest:
      cpuBefore === undefined || cpuAfter === undefined || answered === 0
        ? undefined
        : ((cpuAfter - cpuBefore) * 1000) / answered,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** The median server CPU time per request of `samples` (µs), or undefined when a sample lacks it. */
export function medianCpuUs(samples: readonly Sample[]): number | undefined {
  const values = samples.map((s) => s.cpuUsPerRequest).filter((v): v is number => v !== undefined);
  return values.length === samples.length && values.length > 0 ? median(values) : undefined;
}
