import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';

import { BINARY_MANIFEST } from '@app/platform';

// The real built server: the preflight has to hold in the artefact operators run, not just in unit tests.
const ROOT = resolve(__dirname, '..', '..');
const SERVER_ENTRY = join(ROOT, 'dist', 'apps', 'api', 'src', 'main.js');
const EXIT_DEADLINE_MS = 20_000;
const SURVIVAL_WINDOW_MS = 12_000;
const PASSED_EVENT = 'startup.preflight.passed';
const FAILURE_MARKERS = ['startup.preflight.failed', 'BinaryPreflightError', 'Binary preflight failed'];

interface RunningServer {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

function requireBuiltServer(): string {
  // Failing loudly rather than skipping: a skipped e2e would let a broken preflight ship unnoticed.
  if (!existsSync(SERVER_ENTRY)) {
    throw new Error(`${SERVER_ENTRY} does not exist: run npm run build first`);
  }
  return SERVER_ENTRY;
}

async function writeFakeGit(dir: string, version: string): Promise<void> {
  const path = join(dir, 'git');
  await writeFile(path, `#!/bin/sh\necho "git version ${version}"\n`);
  await chmod(path, 0o755);
}

function startServer(entry: string, env: NodeJS.ProcessEnv): RunningServer {
  // Own process group, so stopping the server also stops anything it spawned.
  const child = spawn(process.execPath, [entry], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('close', (code, signal) => resolveExit({ code, signal }));
  });
  return { child, output: () => ({ stdout, stderr }), exited };
}

function stop(server: RunningServer): void {
  if (server.child.exitCode !== null || server.child.signalCode !== null || server.child.pid === undefined) {
    return;
  }
  try {
    process.kill(-server.child.pid, 'SIGKILL');
  } catch {
    server.child.kill('SIGKILL');
  }
}

/** Throws with the server's output attached, so a failing run explains itself. */
function assertWithOutput(condition: boolean, message: string, stdout: string, stderr: string): void {
  if (!condition) {
    throw new Error(`${message}\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`);
  }
}

/** Resolves 'exited' when the process ends, 'matched' when `predicate` holds, 'deadline' after `ms`. */
function waitFor(
  server: RunningServer,
  predicate: () => boolean,
  ms: number,
): Promise<'exited' | 'matched' | 'deadline'> {
  return new Promise((resolveWait) => {
    const poll = setInterval(() => {
      if (predicate()) {
        finish('matched');
      }
    }, 50);
    const deadline = setTimeout(() => finish('deadline'), ms);
    void server.exited.then(() => finish('exited'));
    function finish(outcome: 'exited' | 'matched' | 'deadline'): void {
      clearInterval(poll);
      clearTimeout(deadline);
      resolveWait(outcome);
    }
  });
}

describe('binary preflight at startup (built server)', () => {
  const git = BINARY_MANIFEST.find((requirement) => requirement.binary === 'git');
  let workDir: string;
  let binDir: string;
  let server: RunningServer | undefined;

  beforeEach(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'preflight-e2e-'));
    binDir = join(workDir, 'bin');
    await mkdir(binDir);
  });

  afterEach(async () => {
    if (server !== undefined) {
      stop(server);
      await server.exited;
      server = undefined;
    }
    await rm(workDir, { recursive: true, force: true });
  });

  function serverEnv(): NodeJS.ProcessEnv {
    // Built from scratch, not inherited: the only git the server may see is the fake one, and no
    // SYNTHORG_DATABASE_URL may leak in from the developer's shell (it would switch the backend to postgres).
    return {
      PATH: [binDir, dirname(process.execPath)].join(delimiter),
      HOME: workDir,
      TMPDIR: tmpdir(),
      NODE_ENV: 'production',
      SYNTHORG_JWT_SECRET: 'e2e-preflight-jwt-secret-'.padEnd(48, '0'),
      SYNTHORG_DB_PATH: join(workDir, 'synthorg.db'),
      SYNTHORG_LOG_DIR: join(workDir, 'logs'),
      SYNTHORG_PORT: '0',
    };
  }

  it('should exit non-zero naming git, its package, subsystems and floor when the only git is 2.39.5', async () => {
    const entry = requireBuiltServer();
    expect(git?.minVersion).toBe('2.48');
    await writeFakeGit(binDir, '2.39.5');
    server = startServer(entry, serverEnv());

    const outcome = await waitFor(server, () => false, EXIT_DEADLINE_MS);
    const exit = outcome === 'exited' ? await server.exited : null;
    const { stdout, stderr } = server.output();
    assertWithOutput(exit !== null, `server still running after ${EXIT_DEADLINE_MS} ms`, stdout, stderr);
    assertWithOutput(
      exit?.code !== 0 && exit?.code !== null,
      `server exited with ${JSON.stringify(exit)}`,
      stdout,
      stderr,
    );

    expect(stderr).toContain('git');
    expect(stderr).toContain(git?.package ?? '<missing manifest entry>');
    for (const subsystem of git?.subsystems ?? []) {
      expect(stderr).toContain(subsystem);
    }
    expect(stderr).toContain('2.48');
    expect(stderr).toContain('2.39.5');
  }, 30_000);

  it('should get past the preflight when the only git is 2.53.0', async () => {
    const entry = requireBuiltServer();
    await writeFakeGit(binDir, '2.53.0');
    server = startServer(entry, serverEnv());

    const passed = (): boolean => {
      const { stdout, stderr } = server?.output() ?? { stdout: '', stderr: '' };
      return `${stdout}${stderr}`.includes(PASSED_EVENT);
    };
    const outcome = await waitFor(server, passed, SURVIVAL_WINDOW_MS);
    const { stdout, stderr } = server.output();
    const all = `${stdout}${stderr}`;

    for (const marker of FAILURE_MARKERS) {
      assertWithOutput(
        !all.includes(marker),
        `output contains the preflight failure marker "${marker}"`,
        stdout,
        stderr,
      );
    }
    // Positive evidence the server got past the preflight: it said so, it is still running, or it finished
    // cleanly. A non-zero exit without the passed event means it died before or inside the preflight (or the
    // build is broken), which this test must not mistake for success.
    const exit = outcome === 'exited' ? await server.exited : null;
    assertWithOutput(
      outcome !== 'exited' || exit?.code === 0 || all.includes(PASSED_EVENT),
      `server exited with ${JSON.stringify(exit)} without logging ${PASSED_EVENT}`,
      stdout,
      stderr,
    );
  }, 30_000);
});
