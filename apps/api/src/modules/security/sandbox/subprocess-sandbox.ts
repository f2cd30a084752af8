import { execFile } from 'node:child_process';
import { dirname } from 'node:path';

import { CommandSandbox, type SandboxRequest, type SandboxResult, scrubbedEnvironment } from '@app/domain';
import { type GroupRunOptions, type GroupRunOutcome, runGroupHere, type SpawnHelper, spawnHelper } from '@app/platform';

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const MAX_COMMAND_OUTPUT_BYTES = 64 * 1024;

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
