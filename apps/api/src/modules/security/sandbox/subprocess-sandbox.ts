import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { dirname } from 'node:path';

import { CommandSandbox, type SandboxRequest, type SandboxResult, scrubbedEnvironment } from '@app/domain';
import { type GroupRunOptions, type GroupRunOutcome, type SpawnHelper, spawnHelper } from '@app/platform';

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const MAX_COMMAND_OUTPUT_BYTES = 64 * 1024;

/** Collects a child's output up to a cap; the rest is drained and dropped. */
export class OutputCap {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  truncated = false;

  constructor(private readonly limit: number) {}

  add(chunk: Buffer): void {
    const room = this.limit - this.size;
    if (room <= 0) {
      this.truncated = true;
      return;
    }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.truncated ||= kept.length < chunk.length;
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString('utf8');
  }
}

/** Kills the whole process group of a detached child (the command and everything it started). */
export function killGroup(child: ChildProcess): void {
  if (child.pid === undefined) {
    return;
  }
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

/**
 * Runs a command with /bin/sh in the task's worktree: an environment scrubbed of every service
 * secret (only PATH, locale and a home in the worktree), its own process group killed whole on
 * timeout or abort, output capped. Where the host allows unprivileged user namespaces, the command
 * gets a network namespace of its own (no network); the result reports what was applied.
 *
 * The command is started from the spawn helper, a small process, rather than from the service
 * (starting a process from one that holds a few hundred megabytes costs several times more, on the
 * thread that serves every request); without the helper it is started here, the same way.
 */
export class SubprocessSandbox extends CommandSandbox {
  readonly name = 'subprocess' as const;
  private netns: Promise<boolean> | null = null;

  constructor(
    private readonly maxOutputBytes = MAX_COMMAND_OUTPUT_BYTES,
    private readonly helper: SpawnHelper | null = spawnHelper,
  ) {
    super();
  }

  unavailable(): Promise<string | null> {
    return Promise.resolve(null);
  }

  /** Whether `unshare --net` works here (probed once). */
  networkIsolation(): Promise<boolean> {
    this.netns ??= new Promise((resolve) => {
      execFile('unshare', ['--net', '--map-root-user', 'true'], { timeout: 5000 }, (error) => resolve(error === null));
    });
    return this.netns;
  }

  async run(request: SandboxRequest): Promise<SandboxResult> {
    const isolated = await this.networkIsolation();
    const shell = ['/bin/sh', '-c', request.command];
    const argv = isolated ? ['unshare', '--net', '--map-root-user', ...shell] : shell;
    // The server's own runtime stays reachable (node, npm) without passing its environment on.
    const path = `${dirname(process.execPath)}:${SYSTEM_PATH}`;
    const options: GroupRunOptions = {
      cwd: request.cwd,
      env: scrubbedEnvironment({ PATH: path, LANG: 'C.UTF-8' }, request.cwd),
      timeoutMs: request.timeoutSeconds * 1000,
      maxOutputBytes: this.maxOutputBytes,
    };
    const started = performance.now();
    const outcome = await (
      this.helper?.runGroup(argv[0], argv.slice(1), options, request.signal) ??
      runGroupHere(argv[0], argv.slice(1), options, request.signal)
    ).catch((error: unknown): GroupRunOutcome => ({
      exitCode: null,
      timedOut: false,
      output: `[the command's outcome is unknown: ${(error as Error).message}]`,
      truncated: false,
    }));
    return {
      ...outcome,
      durationMs: Math.round(performance.now() - started),
      isolation: [
        'scrubbed environment',
        'own process group',
        isolated ? 'network namespace (no network)' : 'network not isolated (user namespaces unavailable)',
      ],
    };
  }
}

/** A group run started from this process: what the spawn helper does, for when it is not there. */
async function runGroupHere(
  file: string,
  args: readonly string[],
  options: GroupRunOptions,
  signal?: AbortSignal,
): Promise<GroupRunOutcome> {
  const child = spawn(file, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = new OutputCap(options.maxOutputBytes);
  child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
  child.stderr.on('data', (chunk: Buffer) => output.add(chunk));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child);
  }, options.timeoutMs);
  const onAbort = (): void => killGroup(child);
  if (signal?.aborted) {
    onAbort();
  }
  signal?.addEventListener('abort', onAbort, { once: true });
  const exitCode = await new Promise<number | null>((resolve) => {
    child.once('error', () => resolve(null));
    child.once('close', (code) => resolve(code));
  }).finally(() => {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
    // Children that outlived the shell (a daemon left behind) go with it.
    killGroup(child);
  });
  return { exitCode, timedOut, output: output.text(), truncated: output.truncated };
}
