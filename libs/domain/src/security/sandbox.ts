import type { ToolCategory } from './tool-access';

/** Where agent commands run. `cluster` is reserved for the future and refused when chosen. */
export const SANDBOX_BACKENDS = ['subprocess', 'container', 'cluster'] as const;
export type SandboxBackendName = (typeof SANDBOX_BACKENDS)[number];

/** The sandbox configuration (spec "Sandbox configuration"), read from the `security` settings. */
export interface SandboxConfig {
  readonly defaultBackend: SandboxBackendName;
  /** A backend per tool category, over the default. */
  readonly overrides: Readonly<Partial<Record<ToolCategory, SandboxBackendName>>>;
  readonly subprocess: { readonly timeoutSeconds: number };
  readonly container: {
    readonly image: string;
    readonly network: 'none' | 'bridge';
    readonly allowedHosts: readonly string[];
    readonly memoryLimit: string;
    readonly cpuLimit: number;
    readonly timeoutSeconds: number;
    readonly mountMode: 'ro' | 'rw';
    readonly autoRemove: boolean;
  };
}

/** The backend a tool of the category runs on: its override, else the default. */
export function sandboxBackendFor(config: SandboxConfig, category: ToolCategory): SandboxBackendName {
  return config.overrides[category] ?? config.defaultBackend;
}

/** One command to run in a task's worktree. */
export interface SandboxRequest {
  readonly command: string;
  /** The task's worktree: the only directory the command sees as its own. */
  readonly cwd: string;
  readonly timeoutSeconds: number;
  readonly signal?: AbortSignal;
}

/** How a command ended, with its (capped) combined output and the isolation actually applied. */
export interface SandboxResult {
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly output: string;
  readonly truncated: boolean;
  readonly durationMs: number;
  /** What isolated the command: `network namespace`, `container --network none`... */
  readonly isolation: readonly string[];
}

/**
 * A place commands run. Adapters: a subprocess in the worktree and a Docker or Podman container.
 * `unavailable` says why the backend cannot run here (a missing container runtime), or null.
 */
export abstract class CommandSandbox {
  abstract readonly name: SandboxBackendName;
  abstract unavailable(): Promise<string | null>;
  abstract run(request: SandboxRequest): Promise<SandboxResult>;
}

/** Environment variable names a sandboxed command inherits; everything else (every secret) is dropped. */
export const SANDBOX_ENV_ALLOWLIST = ['PATH', 'LANG', 'LC_ALL', 'TZ', 'TERM'] as const;

/** The scrubbed environment of a sandboxed command: only the allowlist, plus a home inside the worktree. */
export function scrubbedEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  home: string,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of SANDBOX_ENV_ALLOWLIST) {
    const value = source[name];
    if (value !== undefined) {
      env[name] = value;
    }
  }
  return { ...env, HOME: home, CI: '1', NO_COLOR: '1' };
}
