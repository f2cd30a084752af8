import type { PersistenceBackend } from '../config/app-config';

// Re-exported rather than redeclared: the platform index re-exports both this folder and the config, and two
// declarations of the same name would make that re-export ambiguous. Type-only, so the preflight still loads
// nothing of the config at runtime.
export type { PersistenceBackend };

/** One external binary the service shells out to, and what stops working without it. */
export interface BinaryRequirement {
  binary: string;
  /** The OS package an operator installs to get the binary (named in the startup error). */
  package: string;
  /** Human-readable subsystems that break when the binary is missing or too old. */
  subsystems: readonly string[];
  /** Dotted numeric version floor; omitted when any version will do. */
  minVersion?: string;
  /** Backends that need the binary; undefined means it is needed whatever the backend. */
  backends?: readonly PersistenceBackend[];
}

export type ProbeResult =
  { kind: 'output'; output: string } | { kind: 'timeout' } | { kind: 'spawn-error'; message: string };

/** Runs `<path> --version`, giving up after `timeoutMs`. Must not reject. */
export type VersionProbe = (path: string, timeoutMs: number) => Promise<ProbeResult>;

/** Resolves a binary name to an executable path, or null when it is not installed. */
export type BinaryLocator = (binary: string) => Promise<string | null>;

/** Structural subset of a pino logger, so the preflight runs before the real logger is wired. */
export interface PreflightLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface PreflightOptions {
  /** The resolved backend, or null when none has resolved yet (only backend-independent binaries are demanded). */
  backend: PersistenceBackend | null;
  manifest?: readonly BinaryRequirement[];
  probe?: VersionProbe;
  locate?: BinaryLocator;
  /** Bound on each version probe; default 5000 ms. */
  timeoutMs?: number;
  logger?: PreflightLogger;
  /** Environment whose PATH the default locator searches; default process.env. */
  env?: NodeJS.ProcessEnv;
}

export type BinaryStatus = 'ok' | 'unread' | 'missing' | 'too-old';

export interface BinaryCheck {
  binary: string;
  path: string | null;
  version: string | null;
  status: BinaryStatus;
  /** Why the status is not a plain 'ok' (missing, too old, or why the version could not be read). */
  reason?: string;
}
