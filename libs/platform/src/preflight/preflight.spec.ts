import { BINARY_MANIFEST } from './manifest';
import { BinaryPreflightError, PreflightEvent, runBinaryPreflight } from './preflight';
import type { BinaryLocator, PersistenceBackend, PreflightLogger, ProbeResult, VersionProbe } from './types';

interface LogEntry {
  level: 'info' | 'warn' | 'error';
  obj: object;
  msg: string;
}

function recordingLogger(): PreflightLogger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return {
    entries,
    info: (obj, msg) => entries.push({ level: 'info', obj, msg }),
    warn: (obj, msg) => entries.push({ level: 'warn', obj, msg }),
    error: (obj, msg) => entries.push({ level: 'error', obj, msg }),
  };
}

/** Every binary in `installed` lives at /fake/bin/<name>; anything else is missing. */
function locatorFor(installed: readonly string[]): BinaryLocator & jest.Mock {
  return jest.fn((binary: string) => Promise.resolve(installed.includes(binary) ? `/fake/bin/${binary}` : null));
}

/** Answers each binary's --version from the table; binaries not listed print a healthy version. */
function probeFor(results: Record<string, ProbeResult> = {}): VersionProbe & jest.Mock {
  return jest.fn((path: string) => {
    const binary = path.slice(path.lastIndexOf('/') + 1);
    return Promise.resolve(results[binary] ?? { kind: 'output', output: `${binary} version 99.1.0` });
  });
}

const output = (text: string): ProbeResult => ({ kind: 'output', output: text });
const ALL = ['git', 'pg_dump', 'pg_restore'];

async function preflightError(promise: Promise<unknown>): Promise<BinaryPreflightError> {
  const error: unknown = await promise.then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error).toBeInstanceOf(BinaryPreflightError);
  return error as BinaryPreflightError;
}

describe(runBinaryPreflight.name, () => {
  it('should pass and log the checks when every required binary is present and new enough', async () => {
    const logger = recordingLogger();
    const checks = await runBinaryPreflight({
      backend: 'sqlite',
      locate: locatorFor(ALL),
      probe: probeFor({ git: output('git version 2.53.0\n') }),
      logger,
    });
    expect(checks).toEqual([{ binary: 'git', path: '/fake/bin/git', version: '2.53.0', status: 'ok' }]);
    expect(logger.entries).toEqual([expect.objectContaining({ level: 'info', msg: PreflightEvent.Passed })]);
  });

  it('should throw one error naming the binary, package and subsystems when git is missing', async () => {
    const logger = recordingLogger();
    const error = await preflightError(
      runBinaryPreflight({ backend: 'sqlite', locate: locatorFor([]), probe: probeFor(), logger }),
    );
    expect(error.message).toContain('git');
    expect(error.message).toContain('package "git"');
    expect(error.message).toContain('workspace provisioning on every task dispatch');
    expect(error.message).toContain('agent git tools (worktrees)');
    expect(error.message).toContain('project repositories');
    expect(error.failures).toEqual([
      expect.objectContaining({ binary: 'git', package: 'git', status: 'missing', path: null }),
    ]);
    expect(logger.entries).toEqual([expect.objectContaining({ level: 'error', msg: PreflightEvent.Failed })]);
  });

  it('should not probe a binary when it is missing', async () => {
    const probe = probeFor();
    await preflightError(
      runBinaryPreflight({ backend: 'sqlite', locate: locatorFor([]), probe, logger: recordingLogger() }),
    );
    expect(probe).not.toHaveBeenCalled();
  });

  it('should abort naming the found version and floor when git 2.39.5 is below 2.48', async () => {
    const error = await preflightError(
      runBinaryPreflight({
        backend: 'sqlite',
        locate: locatorFor(ALL),
        probe: probeFor({ git: output('git version 2.39.5\n') }),
        logger: recordingLogger(),
      }),
    );
    expect(error.failures).toEqual([
      expect.objectContaining({ binary: 'git', status: 'too-old', version: '2.39.5', minVersion: '2.48' }),
    ]);
    expect(error.message).toContain('2.39.5');
    expect(error.message).toContain('2.48');
    expect(error.message).toContain('package "git"');
    expect(error.message).toContain('workspace provisioning on every task dispatch');
  });

  it.each(['2.48.0', '2.53.0'])('should pass when git reports %s', async (version) => {
    const checks = await runBinaryPreflight({
      backend: 'sqlite',
      locate: locatorFor(ALL),
      probe: probeFor({ git: output(`git version ${version}`) }),
      logger: recordingLogger(),
    });
    expect(checks).toEqual([expect.objectContaining({ binary: 'git', status: 'ok', version })]);
  });

  it.each<[string, ProbeResult, RegExp]>([
    ['the probe times out', { kind: 'timeout' }, /timed out/],
    ['the spawn fails', { kind: 'spawn-error', message: 'EACCES' }, /spawn failure: EACCES/],
    ['the output has no version', output('git: unknown option --version'), /no version/],
    ['the version has fewer components than the floor', output('git version 2'), /too few components/],
  ])('should allow git through and warn when %s', async (_cause, result, reason) => {
    const logger = recordingLogger();
    const checks = await runBinaryPreflight({
      backend: 'sqlite',
      locate: locatorFor(ALL),
      probe: probeFor({ git: result }),
      logger,
    });
    expect(checks).toEqual([
      expect.objectContaining({
        binary: 'git',
        path: '/fake/bin/git',
        status: 'unread',
        reason: expect.stringMatching(reason),
      }),
    ]);
    expect(logger.entries).toEqual([
      expect.objectContaining({
        level: 'warn',
        msg: PreflightEvent.VersionUnread,
        obj: expect.objectContaining({ binary: 'git' }),
      }),
      expect.objectContaining({ level: 'info', msg: PreflightEvent.Passed }),
    ]);
  });

  it('should record the short version as unread rather than too-old when git prints only a major', async () => {
    const checks = await runBinaryPreflight({
      backend: 'sqlite',
      locate: locatorFor(ALL),
      probe: probeFor({ git: output('git version 2') }),
      logger: recordingLogger(),
    });
    expect(checks[0]).toMatchObject({ status: 'unread', version: '2' });
  });

  it('should pass the timeout bound to the probe when one is configured', async () => {
    const probe = probeFor();
    await runBinaryPreflight({
      backend: 'sqlite',
      locate: locatorFor(ALL),
      probe,
      timeoutMs: 1234,
      logger: recordingLogger(),
    });
    expect(probe).toHaveBeenCalledWith('/fake/bin/git', 1234);
  });

  it('should bound the probe at 5 seconds when no timeout is configured', async () => {
    const probe = probeFor();
    await runBinaryPreflight({ backend: 'sqlite', locate: locatorFor(ALL), probe, logger: recordingLogger() });
    expect(probe).toHaveBeenCalledWith('/fake/bin/git', 5000);
  });

  it('should treat the probe as timed out when an injected probe never settles', async () => {
    const logger = recordingLogger();
    const checks = await runBinaryPreflight({
      backend: 'sqlite',
      locate: locatorFor(ALL),
      probe: () => new Promise<ProbeResult>(() => undefined),
      timeoutMs: 20,
      logger,
    });
    expect(checks[0]).toMatchObject({ status: 'unread', reason: expect.stringMatching(/timed out/) });
  });

  it('should treat a rejecting probe as a spawn failure when the probe throws', async () => {
    const checks = await runBinaryPreflight({
      backend: 'sqlite',
      locate: locatorFor(ALL),
      probe: () => Promise.reject(new Error('boom')),
      logger: recordingLogger(),
    });
    expect(checks[0]).toMatchObject({ status: 'unread', reason: 'spawn failure: boom' });
  });

  it('should demand pg_dump and pg_restore when the backend is postgres', async () => {
    const locate = locatorFor(ALL);
    const checks = await runBinaryPreflight({
      backend: 'postgres',
      locate,
      probe: probeFor(),
      logger: recordingLogger(),
    });
    expect(checks.map((check) => check.binary)).toEqual(['git', 'pg_dump', 'pg_restore']);
    expect(locate.mock.calls.map(([binary]) => binary as string).sort()).toEqual(ALL);
  });

  it('should abort naming postgresql-client when the backend is postgres and its tools are missing', async () => {
    const error = await preflightError(
      runBinaryPreflight({
        backend: 'postgres',
        locate: locatorFor(['git']),
        probe: probeFor(),
        logger: recordingLogger(),
      }),
    );
    expect(error.failures.map((failure) => failure.binary)).toEqual(['pg_dump', 'pg_restore']);
    expect(error.message).toContain('package "postgresql-client"');
    expect(error.message).toContain('Postgres backup');
    expect(error.message).toContain('Postgres restore');
  });

  it.each<[PersistenceBackend | null]>([['sqlite'], [null]])(
    'should demand only backend-independent binaries when the backend is %s',
    async (backend) => {
      const locate = locatorFor(['git']);
      const checks = await runBinaryPreflight({ backend, locate, probe: probeFor(), logger: recordingLogger() });
      expect(checks.map((check) => check.binary)).toEqual(['git']);
      expect(locate.mock.calls.map(([binary]) => binary as string)).toEqual(['git']);
    },
  );

  it('should report every failure in one error with one line each when several binaries fail', async () => {
    const error = await preflightError(
      runBinaryPreflight({
        backend: 'postgres',
        locate: locatorFor(['git', 'pg_restore']),
        probe: probeFor({ git: output('git version 2.39.5') }),
        logger: recordingLogger(),
      }),
    );
    expect(error.failures.map((failure) => [failure.binary, failure.status])).toEqual([
      ['git', 'too-old'],
      ['pg_dump', 'missing'],
    ]);
    const lines = error.message.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(/^ {2}- git: .*2\.39\.5.*2\.48.*package "git".*workspace provisioning/);
    expect(lines[2]).toMatch(/^ {2}- pg_dump: .*package "postgresql-client".*Postgres backup/);
  });

  it('should still fail on missing binaries when another binary is unread', async () => {
    const logger = recordingLogger();
    const error = await preflightError(
      runBinaryPreflight({
        backend: 'postgres',
        locate: locatorFor(['git']),
        probe: probeFor({ git: { kind: 'timeout' } }),
        logger,
      }),
    );
    expect(error.failures.map((failure) => failure.binary)).toEqual(['pg_dump', 'pg_restore']);
    expect(logger.entries.map((entry) => entry.msg)).toEqual([PreflightEvent.VersionUnread, PreflightEvent.Failed]);
  });

  it('should treat a throwing locator as missing when the lookup fails', async () => {
    const error = await preflightError(
      runBinaryPreflight({
        backend: 'sqlite',
        locate: () => Promise.reject(new Error('EACCES')),
        probe: probeFor(),
        logger: recordingLogger(),
      }),
    );
    expect(error.failures[0]).toMatchObject({ binary: 'git', status: 'missing' });
    expect(error.message).toContain('lookup failed: EACCES');
  });

  it('should probe binaries in parallel when several are required', async () => {
    let inFlight = 0;
    let peak = 0;
    const probe: VersionProbe = async () => {
      inFlight++;
      peak = Math.max(peak, inFlight);
      await new Promise((resolve) => setTimeout(resolve, 10));
      inFlight--;
      return { kind: 'output', output: 'version 2.53.0' };
    };
    await runBinaryPreflight({ backend: 'postgres', locate: locatorFor(ALL), probe, logger: recordingLogger() });
    expect(peak).toBe(3);
  });

  it('should search the given env PATH when no locator is injected', async () => {
    const error = await preflightError(
      runBinaryPreflight({ backend: 'sqlite', env: { PATH: '' }, probe: probeFor(), logger: recordingLogger() }),
    );
    expect(error.failures[0]).toMatchObject({ binary: 'git', status: 'missing' });
  });

  it('should use the built-in manifest when none is given', async () => {
    const checks = await runBinaryPreflight({
      backend: 'postgres',
      locate: locatorFor(ALL),
      probe: probeFor(),
      logger: recordingLogger(),
    });
    expect(checks.map((check) => check.binary)).toEqual(BINARY_MANIFEST.map((requirement) => requirement.binary));
  });

  it('should write JSON lines to stderr when no logger is given', async () => {
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await runBinaryPreflight({
        backend: 'sqlite',
        locate: locatorFor(ALL),
        probe: probeFor({ git: { kind: 'timeout' } }),
      });
      const lines = write.mock.calls.map(([chunk]) => JSON.parse(String(chunk)) as { level: number; msg: string });
      expect(lines).toEqual([
        expect.objectContaining({ level: 40, msg: PreflightEvent.VersionUnread, binary: 'git' }),
        expect.objectContaining({ level: 30, msg: PreflightEvent.Passed }),
      ]);
    } finally {
      write.mockRestore();
    }
  });
});
