import { pathLocator } from './locator';
import { BINARY_MANIFEST } from './manifest';
import { defaultVersionProbe } from './probe';
import type {
  BinaryCheck,
  BinaryLocator,
  BinaryRequirement,
  PersistenceBackend,
  PreflightLogger,
  PreflightOptions,
  ProbeResult,
  VersionProbe,
} from './types';
import { compareToFloor, parseVersion } from './version';

export const DEFAULT_PROBE_TIMEOUT_MS = 5000;
// Head start given to the probe's own timeout before the guard below declares it hung, so a well-behaved
// probe always reports its own result.
const PROBE_GUARD_GRACE_MS = 250;

export const PreflightEvent = {
  Passed: 'startup.preflight.passed',
  Failed: 'startup.preflight.failed',
  VersionUnread: 'startup.binary.version_unread',
} as const;

/** One binary that blocks startup, with everything the operator needs to fix it. */
export interface BinaryPreflightFailure {
  binary: string;
  package: string;
  subsystems: readonly string[];
  status: 'missing' | 'too-old';
  path: string | null;
  version: string | null;
  minVersion: string | null;
  /** The line of the error message describing this failure. */
  line: string;
}

/**
 * Startup abort raised when required binaries are missing or too old. Not an AppError: it never reaches
 * HTTP, it stops the process before anything is wired. All failures are gathered into one error so the
 * operator fixes the host in one pass instead of one restart per binary.
 */
export class BinaryPreflightError extends Error {
  readonly failures: readonly BinaryPreflightFailure[];

  constructor(failures: readonly BinaryPreflightFailure[]) {
    const noun = failures.length === 1 ? 'binary is' : 'binaries are';
    super(
      `Binary preflight failed: ${failures.length} required ${noun} unusable; startup aborted.\n` +
        failures.map((failure) => `  - ${failure.line}`).join('\n'),
    );
    this.name = new.target.name;
    this.failures = failures;
  }
}

/**
 * Checks every binary the manifest demands for `backend`: each must be on PATH and, when it has a floor, at
 * least that version. Missing or too-old binaries throw one BinaryPreflightError; a version that cannot be
 * read (probe timeout, spawn failure, no or too-short version) is logged and let through, because a flaky
 * `--version` is a weaker signal than the binary being present. Returns every check on success.
 */
export async function runBinaryPreflight(options: PreflightOptions): Promise<BinaryCheck[]> {
  const manifest = options.manifest ?? BINARY_MANIFEST;
  const probe = options.probe ?? defaultVersionProbe;
  const locate = options.locate ?? pathLocator(options.env ?? process.env);
  const timeoutMs = validTimeout(options.timeoutMs);
  const logger = options.logger ?? stderrLogger;

  const required = manifest.filter((requirement) => isRequired(requirement, options.backend));
  const checks = await Promise.all(required.map((requirement) => checkBinary(requirement, locate, probe, timeoutMs)));

  for (const check of checks) {
    if (check.status === 'unread') {
      logger.warn(
        { binary: check.binary, path: check.path, version: check.version, reason: check.reason },
        PreflightEvent.VersionUnread,
      );
    }
  }

  const failures = checks.flatMap((check, index) => {
    const requirement = required[index];
    return requirement === undefined ? [] : toFailure(check, requirement);
  });
  if (failures.length > 0) {
    const error = new BinaryPreflightError(failures);
    logger.error(
      {
        backend: options.backend,
        failures: failures.map(({ binary, package: pkg, subsystems, status, path, version, minVersion }) => ({
          binary,
          package: pkg,
          subsystems,
          status,
          path,
          version,
          minVersion,
        })),
      },
      PreflightEvent.Failed,
    );
    throw error;
  }

  logger.info(
    {
      backend: options.backend,
      binaries: checks.map(({ binary, path, version, status }) => ({ binary, path, version, status })),
    },
    PreflightEvent.Passed,
  );
  return checks;
}

function isRequired(requirement: BinaryRequirement, backend: PersistenceBackend | null): boolean {
  if (requirement.backends === undefined) {
    return true;
  }
  // With no resolved backend we cannot know which backend-specific tools will be needed, and demanding all of
  // them would refuse to start hosts that never use that backend.
  return backend !== null && requirement.backends.includes(backend);
}

function validTimeout(timeoutMs: number | undefined): number {
  return timeoutMs !== undefined && Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : DEFAULT_PROBE_TIMEOUT_MS;
}

async function checkBinary(
  requirement: BinaryRequirement,
  locate: BinaryLocator,
  probe: VersionProbe,
  timeoutMs: number,
): Promise<BinaryCheck> {
  const { binary, minVersion } = requirement;
  let path: string | null;
  try {
    path = await locate(binary);
  } catch (error: unknown) {
    return { binary, path: null, version: null, status: 'missing', reason: `lookup failed: ${describe(error)}` };
  }
  if (path === null) {
    return { binary, path: null, version: null, status: 'missing', reason: 'not found on PATH' };
  }

  const result = await boundedProbe(probe, path, timeoutMs);
  if (result.kind === 'timeout') {
    return { binary, path, version: null, status: 'unread', reason: `version probe timed out after ${timeoutMs} ms` };
  }
  if (result.kind === 'spawn-error') {
    return { binary, path, version: null, status: 'unread', reason: `spawn failure: ${result.message}` };
  }
  const version = parseVersion(result.output);
  if (version === null) {
    return { binary, path, version: null, status: 'unread', reason: 'no version in --version output' };
  }
  if (minVersion === undefined) {
    return { binary, path, version, status: 'ok' };
  }
  const verdict = compareToFloor(version, minVersion);
  if (verdict === 'unread') {
    return {
      binary,
      path,
      version,
      status: 'unread',
      reason: `version ${version} has too few components to compare with floor ${minVersion}`,
    };
  }
  if (verdict === 'too-old') {
    return { binary, path, version, status: 'too-old', reason: `version ${version} is below floor ${minVersion}` };
  }
  return { binary, path, version, status: 'ok' };
}

/** Enforces the bound even on an injected probe that ignores it or rejects, so startup can never hang here. */
async function boundedProbe(probe: VersionProbe, path: string, timeoutMs: number): Promise<ProbeResult> {
  let guard: NodeJS.Timeout | undefined;
  const hung = new Promise<ProbeResult>((resolve) => {
    guard = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs + PROBE_GUARD_GRACE_MS);
  });
  const probed = (async (): Promise<ProbeResult> => {
    try {
      return await probe(path, timeoutMs);
    } catch (error: unknown) {
      return { kind: 'spawn-error', message: describe(error) };
    }
  })();
  try {
    return await Promise.race([probed, hung]);
  } finally {
    clearTimeout(guard);
  }
}

function toFailure(check: BinaryCheck, requirement: BinaryRequirement): BinaryPreflightFailure[] {
  if (check.status !== 'missing' && check.status !== 'too-old') {
    return [];
  }
  const breaks = `Breaks: ${requirement.subsystems.join(', ')}`;
  const line =
    check.status === 'missing'
      ? `${requirement.binary}: ${check.reason ?? 'not found on PATH'}; install package "${requirement.package}". ${breaks}`
      : `${requirement.binary}: version ${check.version ?? '?'} at ${check.path ?? '?'} is older than the required ` +
        `${requirement.minVersion ?? '?'}; upgrade package "${requirement.package}". ${breaks}`;
  return [
    {
      binary: requirement.binary,
      package: requirement.package,
      subsystems: requirement.subsystems,
      status: check.status,
      path: check.path,
      version: check.version,
      minVersion: requirement.minVersion ?? null,
      line,
    },
  ];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

// pino's numeric levels, so these lines read the same as the service's own logs.
const LEVELS = { info: 30, warn: 40, error: 50 } as const;

function writeLine(level: keyof typeof LEVELS, obj: object, msg: string): void {
  process.stderr.write(`${JSON.stringify({ level: LEVELS[level], time: Date.now(), ...obj, msg })}\n`);
}

/**
 * Used when the caller passes no logger: the preflight runs before the application logger exists, and its
 * findings must still reach the operator. stderr keeps them out of any stdout the service reserves for data.
 */
const stderrLogger: PreflightLogger = {
  info: (obj, msg) => writeLine('info', obj, msg),
  warn: (obj, msg) => writeLine('warn', obj, msg),
  error: (obj, msg) => writeLine('error', obj, msg),
};
