import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type CommandSandbox,
  type SandboxBackendName,
  type SandboxConfig,
  type SandboxResult,
  sandboxBackendFor,
  type SettingValue,
  type ToolCategory,
  ToolError,
} from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SettingsSnapshot } from '../../settings';
import { ContainerSandbox } from './container-sandbox';
import { parseSandboxOverrides } from './sandbox.settings';
import { SubprocessSandbox } from './subprocess-sandbox';

/**
 * Picks the sandbox for a tool category from the running settings and runs commands there. A
 * backend that cannot run here (no container runtime, the future cluster) fails the call with its
 * reason; nothing falls back to a less isolated backend.
 */
@Injectable()
export class SandboxRunner {
  private readonly log: Logger;
  private readonly subprocess = new SubprocessSandbox();
  private readonly container: ContainerSandbox;

  constructor(
    private readonly settings: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security.sandbox');
    this.container = new ContainerSandbox(() => this.config().container);
  }

  config(): SandboxConfig {
    const v = <T extends SettingValue>(key: string): T => this.settings.value<T>('security', key);
    const hosts = v<SettingValue>('sandbox_container_allowed_hosts');
    return {
      defaultBackend: v<SandboxBackendName>('sandbox_default_backend'),
      overrides: parseSandboxOverrides(JSON.stringify(v<SettingValue>('sandbox_overrides'))),
      subprocess: { timeoutSeconds: v<number>('sandbox_subprocess_timeout_seconds') },
      container: {
        image: v<string>('sandbox_container_image'),
        network: v<'none' | 'bridge'>('sandbox_container_network'),
        allowedHosts: Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [],
        memoryLimit: v<string>('sandbox_container_memory_limit'),
        cpuLimit: v<number>('sandbox_container_cpu_limit'),
        timeoutSeconds: v<number>('sandbox_container_timeout_seconds'),
        mountMode: v<'ro' | 'rw'>('sandbox_container_mount_mode'),
        autoRemove: v<boolean>('sandbox_container_auto_remove'),
      },
    };
  }

  /** Logs a warning at startup for each configured backend that cannot run here. */
  async warnIfUnavailable(): Promise<void> {
    const config = this.config();
    const chosen = new Set<SandboxBackendName>([config.defaultBackend, ...Object.values(config.overrides)]);
    for (const name of chosen) {
      const reason = await this.unavailable(name);
      if (reason !== null) {
        this.log.warn({ backend: name, reason }, 'security.sandbox.unavailable');
      }
    }
  }

  /** Runs a command for a tool of the category. @throws ToolError when the backend cannot run here. */
  async run(
    category: ToolCategory,
    command: string,
    cwd: string,
    requestedSeconds: number | undefined,
    signal?: AbortSignal,
  ): Promise<SandboxResult> {
    const config = this.config();
    const name = sandboxBackendFor(config, category);
    const reason = await this.unavailable(name);
    if (reason !== null || name === 'cluster') {
      throw new ToolError(`run_command cannot run: ${reason ?? 'no such backend'}`);
    }
    const backend = this.backend(name);
    const limit = name === 'container' ? config.container.timeoutSeconds : config.subprocess.timeoutSeconds;
    const timeoutSeconds = Math.min(requestedSeconds ?? limit, limit);
    return backend.run({ command, cwd, timeoutSeconds, signal });
  }

  private async unavailable(name: SandboxBackendName): Promise<string | null> {
    if (name === 'cluster') {
      return 'the cluster sandbox backend is not available yet; choose subprocess or container';
    }
    return this.backend(name).unavailable();
  }

  private backend(name: 'subprocess' | 'container'): CommandSandbox {
    return name === 'container' ? this.container : this.subprocess;
  }
}
