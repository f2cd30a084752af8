import { execFile, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';

import { CommandSandbox, type SandboxConfig, type SandboxRequest, type SandboxResult } from '@app/domain';
import { killGroup, OutputCap } from '@app/platform';

import { MAX_COMMAND_OUTPUT_BYTES } from './subprocess-sandbox';

const RUNTIMES = ['docker', 'podman'] as const;
type Runtime = (typeof RUNTIMES)[number];

function answers(runtime: Runtime): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(runtime, ['info'], { timeout: 5000 }, (error) => resolve(error === null));
  });
}

/**
 * Runs a command in a Docker or Podman container: the worktree mounted (read-only by default),
 * no network unless hosts are allowed, memory and CPU limits, a timeout, removed afterwards. Without
 * a runtime that answers, every call fails with that reason: there is no fallback to a less safe
 * backend.
 */
export class ContainerSandbox extends CommandSandbox {
  readonly name = 'container' as const;
  private runtime: Promise<Runtime | null> | null = null;

  constructor(
    private readonly config: () => SandboxConfig['container'],
    private readonly candidates: readonly Runtime[] = RUNTIMES,
  ) {
    super();
  }

  /** The first runtime whose daemon answers (probed once). */
  detect(): Promise<Runtime | null> {
    this.runtime ??= (async () => {
      for (const candidate of this.candidates) {
        if (await answers(candidate)) {
          return candidate;
        }
      }
      return null;
    })();
    return this.runtime;
  }

  async unavailable(): Promise<string | null> {
    return (await this.detect()) === null
      ? `no container runtime answers (tried ${this.candidates.join(', ')}): the container sandbox cannot run commands, and there is no fallback to a less isolated backend`
      : null;
  }

  async run(request: SandboxRequest): Promise<SandboxResult> {
    const runtime = await this.detect();
    if (runtime === null) {
      throw new Error((await this.unavailable()) ?? 'no container runtime');
    }
    const c = this.config();
    const network = c.allowedHosts.length > 0 ? 'bridge' : c.network;
    const name = `synthorg-sandbox-${randomUUID()}`;
    const args = [
      'run',
      '--name',
      name,
      ...(c.autoRemove ? ['--rm'] : []),
      '--network',
      network,
      '--memory',
      c.memoryLimit,
      '--cpus',
      String(c.cpuLimit),
      '--volume',
      `${request.cwd}:/workspace:${c.mountMode}`,
      '--workdir',
      '/workspace',
      '--env',
      'HOME=/tmp',
      '--env',
      'CI=1',
      c.image,
      'sh',
      '-c',
      request.command,
    ];
    const started = performance.now();
    const child = spawn(runtime, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: {} });
    const output = new OutputCap(MAX_COMMAND_OUTPUT_BYTES);
    child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.add(chunk));
    let timedOut = false;
    const stop = (): void => {
      execFile(runtime, ['kill', name], () => killGroup(child));
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, request.timeoutSeconds * 1000);
    request.signal?.addEventListener('abort', stop, { once: true });
    const exitCode = await new Promise<number | null>((resolve) => {
      child.once('error', () => resolve(null));
      child.once('close', (code) => resolve(code));
    }).finally(() => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', stop);
    });
    return {
      exitCode,
      timedOut,
      output: output.text(),
      truncated: output.truncated,
      durationMs: Math.round(performance.now() - started),
      isolation: [
        `${runtime} container`,
        `network ${network}${network === 'bridge' ? ` (allowed hosts: ${c.allowedHosts.join(', ') || 'any'})` : ''}`,
        `memory ${c.memoryLimit}`,
        `cpus ${c.cpuLimit}`,
        `worktree mounted ${c.mountMode}`,
      ],
    };
  }
}
