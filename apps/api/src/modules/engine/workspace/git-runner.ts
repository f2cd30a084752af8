import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { devNull } from 'node:os';

import { ErrorCode, InternalError } from '@app/domain';
import { execHere, type SpawnHelper, spawnHelper } from '@app/platform';

export const DEFAULT_GIT_TIMEOUT_MS = 30_000;
// Worktree listings and status of a large tree can exceed execFile's 1 MiB default.
const MAX_STDOUT_BYTES = 16 * 1024 * 1024;
const MAX_STDERR_CHARS = 2_000;
const MAX_COMMAND_CHARS = 500;

export interface GitIdentity {
  name: string;
  email: string;
}

export const DEFAULT_GIT_IDENTITY: Readonly<GitIdentity> = Object.freeze({
  name: 'SynthOrg',
  email: 'synthorg@localhost',
});

export interface GitRunnerOptions {
  /** Executable name or path; default `git` (resolved on PATH). */
  binary?: string;
  timeoutMs?: number;
  /** Committer, and author unless a call overrides it. */
  identity?: GitIdentity;
  /** Environment to inherit from (minus every GIT_* variable); default the process environment. */
  baseEnv?: NodeJS.ProcessEnv;
  /** Where commands are started: the process's small helper (default), or null for this process itself. */
  helper?: SpawnHelper | null;
}

export interface GitRunOptions {
  cwd: string;
  /** Extra variables for this call only (e.g. GIT_AUTHOR_NAME). */
  env?: Record<string, string>;
  timeoutMs?: number;
}

export interface GitRunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** A git invocation failed: non-zero exit, timeout, or the binary could not be started. */
export class GitCommandError extends InternalError {
  constructor(
    readonly command: string,
    readonly exitCode: number | null,
    readonly stderr: string,
    readonly timedOut = false,
    cause?: unknown,
  ) {
    const reason = timedOut ? 'timed out' : exitCode === null ? 'could not run' : `exited with code ${exitCode}`;
    super(`${command} ${reason}${stderr ? `: ${stderr}` : ''}`, ErrorCode.EngineError, cause);
  }
}

/**
 * Removes every inherited GIT_* variable: a service started from a git hook or an IDE terminal may carry
 * GIT_DIR, GIT_WORK_TREE or GIT_INDEX_FILE, which would silently redirect every command to another
 * repository. Global and system config are ignored too, so a developer's signing or hook settings
 * cannot change what the engine does; prompts are disabled because nobody can answer them.
 */
export function sanitizedGitEnv(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(base)) {
    if (value !== undefined && !key.toUpperCase().startsWith('GIT_')) {
      env[key] = value;
    }
  }
  return {
    ...env,
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: devNull,
    // Messages are parsed nowhere, but English ones make logged errors readable by the whole team.
    LC_ALL: 'C',
  };
}

/** Runs git without a shell: arguments are passed as a vector, so nothing in them is interpreted. */
export class GitRunner {
  readonly binary: string;
  readonly identity: Readonly<GitIdentity>;
  private readonly timeoutMs: number;
  private readonly env: NodeJS.ProcessEnv;
  private readonly helper: SpawnHelper | null;

  constructor(options: GitRunnerOptions = {}) {
    this.helper = options.helper === undefined ? spawnHelper : options.helper;
    this.binary = options.binary ?? 'git';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
    this.identity = options.identity ?? DEFAULT_GIT_IDENTITY;
    // The one place the inherited environment is read: PATH and HOME must reach git and its helpers.
    this.env = sanitizedGitEnv(options.baseEnv ?? process.env);
  }

  /** Runs git and returns stdout; a non-zero exit throws GitCommandError. */
  async run(args: readonly string[], options: GitRunOptions): Promise<string> {
    const result = await this.runResult(args, options);
    if (result.exitCode !== 0) {
      throw new GitCommandError(this.describe(args), result.exitCode, boundStderr(result.stderr));
    }
    return result.stdout;
  }

  /** Runs git and reports the exit code instead of throwing on it; timeouts and spawn failures still throw. */
  runResult(args: readonly string[], options: GitRunOptions): Promise<GitRunResult> {
    const fullArgs = [...this.configArgs(), ...args];
    const env = { ...this.env, ...options.env };
    const timeout = options.timeoutMs ?? this.timeoutMs;
    const exec = { cwd: options.cwd, env, timeout, maxBuffer: MAX_STDOUT_BYTES };
    const started = this.helper?.run(this.binary, fullArgs, exec) ?? execHere(this.binary, fullArgs, exec);
    return started.then(
      (reply) => {
        if (reply.failure === null && reply.code !== null) {
          return { exitCode: reply.code, stdout: reply.stdout, stderr: reply.stderr };
        }
        const cause = new Error(reply.failure ?? 'stopped');
        throw new GitCommandError(this.describe(args), null, boundStderr(reply.stderr), reply.killed, cause);
      },
      (error: unknown) => {
        // The helper died while the command ran: whether it ran is unknown.
        throw new GitCommandError(this.describe(args), null, '', false, error);
      },
    );
  }

  /**
   * Runs git and streams its stdout (file contents of any size, binary included); a non-zero exit
   * or a spawn failure fails the stream. The stream ends only once git has exited with 0, so a
   * reader never mistakes a failed command's partial output for the whole file.
   */
  stream(args: readonly string[], options: GitRunOptions): Readable {
    const child = spawn(this.binary, [...this.configArgs(), ...args], {
      cwd: options.cwd,
      env: { ...this.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-MAX_STDERR_CHARS);
    });
    // Piped at once: Node drains a child's untouched stdout when the child exits, so a stream handed
    // out raw loses everything a fast command wrote before its reader attached.
    const out = new PassThrough();
    child.stdout.pipe(out, { end: false });
    child.on('error', (error) => out.destroy(new GitCommandError(this.describe(args), null, '', false, error)));
    // 'close' comes after stdout has ended, so every byte is in `out` by then.
    child.on('close', (code) => {
      if (code === 0) {
        out.end();
      } else {
        out.destroy(new GitCommandError(this.describe(args), code, boundStderr(stderr)));
      }
    });
    // A reader that gives up early must not leave git blocked on a full pipe.
    out.once('close', () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
    });
    return out;
  }

  // Per-invocation config: a fixed identity, no hooks (nothing the service runs should execute
  // repository-provided scripts), no signing, and no background gc that could outlive the call.
  private configArgs(): string[] {
    return [
      '-c',
      `user.name=${this.identity.name}`,
      '-c',
      `user.email=${this.identity.email}`,
      '-c',
      `core.hooksPath=${devNull}`,
      '-c',
      'commit.gpgSign=false',
      '-c',
      'gc.auto=0',
      '-c',
      'maintenance.auto=false',
    ];
  }

  private describe(args: readonly string[]): string {
    const command = [this.binary, ...args].join(' ');
    return command.length > MAX_COMMAND_CHARS ? `${command.slice(0, MAX_COMMAND_CHARS)}…` : command;
  }
}

/** Trimmed and capped, so a chatty failure cannot flood logs or error responses. */
export function boundStderr(stderr: string): string {
  const trimmed = stderr.trim();
  return trimmed.length > MAX_STDERR_CHARS ? `${trimmed.slice(0, MAX_STDERR_CHARS)}…` : trimmed;
}
