import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  type GroupRunOptions,
  type GroupStream,
  type GroupStreamEvents,
  type GroupStreamOptions,
  minimalEnvironment,
  OutputCap,
  SpawnHelper,
  startGroupStreamHere,
} from './spawn-helper';

describe('SpawnHelper group runs', () => {
  let dir: string;
  let helper: SpawnHelper;
  const options = (overrides: Partial<GroupRunOptions> = {}): GroupRunOptions => ({
    cwd: dir,
    env: { PATH: process.env.PATH },
    timeoutMs: 10_000,
    maxOutputBytes: 1024,
    ...overrides,
  });
  const processOf = (made: SpawnHelper): ChildProcess => (made as unknown as { child: ChildProcess }).child;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'spawn-helper-'));
    helper = new SpawnHelper();
  });

  afterEach(() => {
    helper.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('should answer the exit code and the output of both streams, in the given directory and environment', async () => {
    const outcome = await helper.runGroup(
      '/bin/sh',
      ['-c', 'pwd; echo "$GREETING" >&2; exit 4'],
      options({ env: { PATH: process.env.PATH, GREETING: 'hello' } }),
    );

    expect(outcome).toEqual({ exitCode: 4, timedOut: false, output: `${dir}\nhello\n`, truncated: false });
  });

  it('should cap the output and say so', async () => {
    const outcome = await helper.runGroup('/bin/sh', ['-c', 'yes x | head -c 5000'], options({ maxOutputBytes: 100 }));

    expect(outcome).toMatchObject({ exitCode: 0, truncated: true });
    expect(outcome?.output).toHaveLength(100);
  });

  it('should kill the group past its timeout', async () => {
    const started = Date.now();
    const outcome = await helper.runGroup('/bin/sh', ['-c', 'sleep 30'], options({ timeoutMs: 200 }));

    expect(outcome).toMatchObject({ exitCode: null, timedOut: true });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('should run group runs side by side, and stop only the one whose signal fired', async () => {
    const controller = new AbortController();
    const stopped = helper.runGroup('/bin/sh', ['-c', 'sleep 30'], options(), controller.signal);
    const other = helper.runGroup('/bin/sh', ['-c', 'sleep 0.5; echo done'], options());
    setTimeout(() => controller.abort(), 100);

    expect(await stopped).toMatchObject({ exitCode: null, timedOut: false });
    expect(await other).toMatchObject({ exitCode: 0, output: 'done\n' });
  });

  it('should fail the runs in flight when the helper is lost, and leave later ones to the caller', async () => {
    const running = helper.runGroup('/bin/sh', ['-c', 'sleep 30'], options());
    const child = processOf(helper);
    await new Promise((resolve) => setTimeout(resolve, 100));
    child.kill('SIGKILL');

    await expect(running).rejects.toThrow(/the helper exited/);
    expect(helper.runGroup('/bin/sh', ['-c', 'true'], options())).toBeNull();
  });

  it('should kill the groups still running when the service closes its channel', async () => {
    const marker = join(dir, 'outlived');
    const running = helper.runGroup('/bin/sh', ['-c', `sleep 0.6; touch ${marker}`], options());
    await new Promise((resolve) => setTimeout(resolve, 200));
    helper.close();

    await expect(running).rejects.toThrow(/the helper exited/);
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(existsSync(marker)).toBe(false);
  });
});

/** A stream's output and exit as a test reads them. */
class StreamProbe implements GroupStreamEvents {
  pid: number | undefined;
  stdout = '';
  stderr = '';
  readonly exited: Promise<{ code: number | null; failure: string | null }>;
  readonly spawned: Promise<number | undefined>;
  private exit!: (outcome: { code: number | null; failure: string | null }) => void;
  private spawn!: (pid: number | undefined) => void;

  constructor() {
    this.exited = new Promise((resolve) => (this.exit = resolve));
    this.spawned = new Promise((resolve) => (this.spawn = resolve));
  }

  onSpawn(pid: number | undefined): void {
    this.pid = pid;
    this.spawn(pid);
  }
  onStdout(chunk: Buffer): void {
    this.stdout += chunk.toString('utf8');
  }
  onStderr(chunk: Buffer): void {
    this.stderr += chunk.toString('utf8');
  }
  onExit(code: number | null, failure: string | null): void {
    this.exit({ code, failure });
  }

  async until(text: string): Promise<void> {
    for (let i = 0; i < 200 && !this.stdout.includes(text); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// A line-echoing command that starts a child of its own (in its group) and prints both ids.
const ECHO = [
  '-e',
  `const { spawn } = require('node:child_process');
   const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
   process.stdout.write('pids ' + process.pid + ' ' + sleeper.pid + ' ' + Object.keys(process.env).sort().join(',') + '\\n');
   process.stderr.write('started\\n');
   process.stdin.on('data', (d) => process.stdout.write('got ' + d));`,
];

describe.each([
  ['the spawn helper', (helper: SpawnHelper) => helper.startStream.bind(helper)],
  ['this process', () => startGroupStreamHere],
])('Group streams started by %s', (_name, starter) => {
  let helper: SpawnHelper;
  let start: (file: string, args: readonly string[], o: GroupStreamOptions, e: GroupStreamEvents) => GroupStream | null;
  const env = minimalEnvironment(process.env, { OWN_VARIABLE: 'mine' });

  beforeEach(() => {
    helper = new SpawnHelper();
    start = starter(helper);
  });

  afterEach(() => helper.close());

  it('should relay stdin and stdout, give the minimal environment, and kill the whole group on stop', async () => {
    const probe = new StreamProbe();
    const stream = start(process.execPath, ECHO, { env }, probe) as GroupStream;
    expect(await probe.spawned).toEqual(expect.any(Number));
    await probe.until('pids ');
    const [, pid, sleeper, names] = /pids (\d+) (\d+) (\S+)/.exec(probe.stdout) ?? [];
    expect(Number(pid)).toBe(probe.pid);
    expect(names.split(',')).toContain('OWN_VARIABLE');
    expect(names.split(',').filter((name) => name.startsWith('SYNTHORG_') || name.startsWith('JEST'))).toEqual([]);
    await stream.write('hello\n');
    await probe.until('got hello');
    expect(probe.stdout).toContain('got hello\n');
    expect(probe.stderr).toContain('started');

    stream.stop();
    expect(await probe.exited).toMatchObject({ failure: null });
    for (let i = 0; i < 100 && alive(Number(sleeper)); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(alive(Number(pid))).toBe(false);
    expect(alive(Number(sleeper))).toBe(false);
    await expect(stream.write('late\n')).rejects.toThrow(/not running/);
  });

  it('should report a command that cannot start', async () => {
    const probe = new StreamProbe();
    start('/nonexistent/command', [], { env }, probe);
    expect(await probe.exited).toEqual({ code: null, failure: expect.stringContaining('ENOENT') });
  });
});

describe('SpawnHelper streams and the service', () => {
  it('should kill the streams still running when the service closes its channel', async () => {
    const helper = new SpawnHelper();
    const probe = new StreamProbe();
    helper.startStream(process.execPath, ECHO, { env: minimalEnvironment(process.env, {}) }, probe);
    await probe.until('pids ');
    const [, pid, sleeper] = /pids (\d+) (\d+)/.exec(probe.stdout) ?? [];
    helper.close();

    expect(await probe.exited).toEqual({ code: null, failure: expect.stringMatching(/the helper exited/) });
    for (let i = 0; i < 100 && (alive(Number(pid)) || alive(Number(sleeper))); i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(alive(Number(pid))).toBe(false);
    expect(alive(Number(sleeper))).toBe(false);
  });
});

describe(OutputCap.name, () => {
  it.each([
    [[5, 5], 10, 10, false],
    [[8, 8], 10, 10, true],
    [[12], 10, 10, true],
    [[3], 10, 3, false],
  ])('should keep chunks %j under a cap of %i as %i bytes (truncated %s)', (sizes, limit, kept, truncated) => {
    const cap = new OutputCap(limit);
    sizes.forEach((n) => cap.add(Buffer.alloc(n, 'a')));
    expect(cap.text()).toHaveLength(kept);
    expect(cap.truncated).toBe(truncated);
  });
});
