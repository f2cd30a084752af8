import { type ChildProcess, spawn } from 'node:child_process';

import autocannon from 'autocannon';

/** Terminal colour codes, stripped from captured console output before matching. */
const ANSI_ESCAPES = new RegExp(String.fromCharCode(27) + '\\[[0-9;]*m', 'g');

export interface Target {
  name: string;
  url: string;
  headers?: Record<string, string>;
}

export interface Sample {
  requests: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
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
}

/** Spawns a server script that prints `LISTENING <port>` (or the service's own start log) and waits for it. */
export function spawnServer(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 30_000,
  options: SpawnOptions = {},
): Promise<RunningServer> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
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
      const plain = out.replace(ANSI_ESCAPES, '');
      // The digits must be followed by something: a chunk may end inside the port number.
      const match = /LISTENING (\d+)\D/.exec(plain) ?? /api\.server\.started[\s\S]*?port[^0-9]*(\d+)\D/.exec(plain);
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
          port: Number(match[1]),
          child,
          output: () => (tail.length > 0 ? `${out}\n[...]\n${Buffer.concat(tail).toString().slice(-16_384)}` : out),
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null || child.signalCode !== null) {
                done(); // already gone (crashed): 'exit' will not fire again
                return;
              }
              child.once('exit', () => done());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
            }),
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

export async function load(target: Target, seconds: number, connections: number): Promise<Sample> {
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    headers: target.headers,
    pipelining: 1,
  });
  return {
    requests: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}
