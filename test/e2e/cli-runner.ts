import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

/** The built command line (run `npm run build` first). */
export const CLI = resolve(__dirname, '../../dist/apps/cli/src/main.js');

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRunner {
  /** Runs `synthorg <args>` to its end; `stdin` is piped when given, else closed. */
  run(args: string[], options?: { stdin?: string; env?: Record<string, string | undefined> }): Promise<CliResult>;
  /** Runs `synthorg <args>` and parses its stdout as JSON (expecting exit 0). */
  json<T = Json>(args: string[], options?: { env?: Record<string, string | undefined> }): Promise<T>;
  /** Starts a long-running command (events tail, approvals watch). */
  start(args: string[], options?: { env?: Record<string, string | undefined> }): Running;
  /** Every line any command printed, stdout and stderr, for the no-token check. */
  transcript(): string;
}

export interface Running {
  proc: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Waits until stdout or stderr satisfies `check`. */
  waitFor(check: (out: { stdout: string; stderr: string }) => boolean, timeoutMs?: number): Promise<void>;
  /** Sends SIGINT and answers the exit code. */
  stop(): Promise<number | null>;
}

/** A runner for the command line with its own config directory and environment. */
export function cliRunner(env: () => Record<string, string | undefined>): CliRunner {
  if (!existsSync(CLI)) {
    throw new Error(`${CLI} does not exist: run npm run build first`);
  }
  const seen: string[] = [];
  const environment = (extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv => {
    const merged: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env(), ...extra };
    for (const [key, value] of Object.entries(merged)) {
      if (value === undefined) {
        delete merged[key];
      }
    }
    return merged;
  };
  const start = (args: string[], options: { stdin?: string; env?: Record<string, string | undefined> } = {}) => {
    const proc = spawn(process.execPath, [CLI, ...args], {
      env: environment(options.env),
      stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    proc.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    if (options.stdin !== undefined) {
      proc.stdin?.end(options.stdin);
    }
    const exited = new Promise<number | null>((done) =>
      proc.once('close', (code) => {
        seen.push(`$ synthorg ${args.join(' ')}\n${stdout}${stderr}`);
        done(code);
      }),
    );
    return { proc, exited, stdout: () => stdout, stderr: () => stderr };
  };
  const runner: CliRunner = {
    async run(args, options = {}) {
      const child = start(args, options);
      const code = await child.exited;
      return { code, stdout: child.stdout(), stderr: child.stderr() };
    },
    async json(args, options = {}) {
      const result = await runner.run([...args, '--json'], options);
      if (result.code !== 0) {
        throw new Error(`synthorg ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
      }
      return JSON.parse(result.stdout);
    },
    start(args, options = {}) {
      const child = start(args, options);
      return {
        proc: child.proc,
        stdout: child.stdout,
        stderr: child.stderr,
        async waitFor(check, timeoutMs = 20_000) {
          const until = Date.now() + timeoutMs;
          while (!check({ stdout: child.stdout(), stderr: child.stderr() })) {
            if (Date.now() > until || child.proc.exitCode !== null) {
              throw new Error(
                `not seen within ${timeoutMs} ms (exit ${child.proc.exitCode}):\n${child.stdout()}\n${child.stderr()}`,
              );
            }
            await new Promise((done) => setTimeout(done, 50));
          }
        },
        async stop() {
          if (child.proc.exitCode === null) {
            child.proc.kill('SIGINT');
          }
          return child.exited;
        },
      };
    },
    transcript: () => seen.join('\n'),
  };
  return runner;
}

/** The JSON lines of a stream's stdout. */
export function jsonLines(text: string): Json[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
}
