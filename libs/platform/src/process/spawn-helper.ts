import { type ChildProcess, execFile, spawn } from 'node:child_process';

/** What execFile would have been given, minus its callback. */
export interface HelperExecOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeout: number;
  maxBuffer: number;
}

/** How a command run by the helper ended: as execFile reports it, flattened for the IPC channel. */
export interface HelperReply {
  /** The exit code, 0 for success; null when the command did not exit by itself (signal, spawn failure). */
  code: number | null;
  /** Killed by the helper (its timeout or an output over maxBuffer). */
  killed: boolean;
  /** Why the command could not run or was stopped; null when it exited by itself. */
  failure: string | null;
  stdout: string;
  stderr: string;
}

/**
 * A command run in a process group of its own (the sandbox's): its output, stdout and stderr
 * interleaved, kept up to `maxOutputBytes`; the whole group killed past `timeoutMs`, on a stop, and
 * once the command has exited (whatever it left running goes with it).
 */
export interface GroupRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  maxOutputBytes: number;
}

/** How a group run ended. */
export interface GroupRunOutcome {
  /** Null when the command did not exit by itself (killed, or it could not start). */
  exitCode: number | null;
  timedOut: boolean;
  output: string;
  truncated: boolean;
}

/** A long-running command in a process group of its own, talked to over its stdin and stdout. */
export interface GroupStreamOptions {
  /** The whole environment the command sees (see {@link minimalEnvironment}). */
  env: Readonly<Record<string, string>>;
  cwd?: string;
}

/** What a group stream reports, in order: started (or exited without starting), output, exit. */
export interface GroupStreamEvents {
  onSpawn(pid: number | undefined): void;
  onStdout(chunk: Buffer): void;
  onStderr(chunk: Buffer): void;
  /** Once: the command exited (`code`), could not start, or was lost with the helper (`failure`). */
  onExit(code: number | null, failure: string | null): void;
}

/** A running group stream: write to its stdin, or stop it (its whole group is killed). */
export interface GroupStream {
  write(chunk: string): Promise<void>;
  stop(): void;
}

type Request =
  | { kind: 'exec'; id: number; file: string; args: readonly string[]; options: HelperExecOptions }
  | { kind: 'group'; id: number; file: string; args: readonly string[]; options: GroupRunOptions }
  | { kind: 'stream'; id: number; file: string; args: readonly string[]; options: GroupStreamOptions }
  | { kind: 'stdin'; id: number; data: string }
  | { kind: 'stop'; id: number };

/** A stream's report from the helper: `event` tells it from a command's answer. */
type StreamEvent =
  | { id: number; event: 'spawn'; pid: number | undefined }
  | { id: number; event: 'stdout' | 'stderr'; data: string }
  | { id: number; event: 'exit'; code: number | null; failure: string | null };

/**
 * The helper's whole program. It runs each requested command with execFile (no shell: arguments stay
 * a vector) and answers with the outcome; a group run is spawned detached, so it leads a process
 * group that the helper kills whole (its timeout, a stop from the service, its exit). A stream is a
 * group run that lives until it exits or is stopped: its stdin is fed from the service's messages,
 * its stdout and stderr are relayed back as they come. It lives
 * exactly as long as the service's channel: it exits when the channel closes, killing the groups
 * still running (a command does not outlive the service that started it), and ignores the
 * interrupt and termination signals that reach a whole process group (Ctrl-C in a terminal), so the
 * service's graceful shutdown can still run git. `ps` lists it as `synthorg-spawn-helper`.
 */
const HELPER_SOURCE = `
process.title = 'synthorg-spawn-helper';
const { execFile, spawn } = require('node:child_process');
const groups = new Map();
const killGroup = (child) => {
  try { if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL'); } catch {}
};
process.on('disconnect', () => {
  for (const child of groups.values()) killGroup(child);
  process.exit(0);
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {});
function exec(m) {
  const options = { ...m.options, killSignal: 'SIGKILL', windowsHide: true, encoding: 'utf8' };
  const child = execFile(m.file, m.args, options, (error, stdout, stderr) => {
    const numeric = error !== null && typeof error.code === 'number';
    process.send({
      id: m.id,
      code: error === null ? 0 : numeric ? error.code : null,
      killed: error !== null && error.killed === true,
      failure: error !== null && (!numeric || error.killed === true) ? String(error.message) : null,
      stdout,
      stderr,
    });
  });
  if (child.stdin) child.stdin.end();
}
function group(m) {
  const { cwd, env, timeoutMs, maxOutputBytes } = m.options;
  const chunks = [];
  let size = 0, truncated = false, timedOut = false, done = false;
  let child;
  const finish = (exitCode) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    groups.delete(m.id);
    if (child) killGroup(child);
    const output = Buffer.concat(chunks).toString('utf8');
    process.send({ id: m.id, exitCode, timedOut, output, truncated });
  };
  const timer = setTimeout(() => { timedOut = true; if (child) killGroup(child); }, timeoutMs);
  try {
    child = spawn(m.file, m.args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true });
  } catch {
    finish(null);
    return;
  }
  groups.set(m.id, child);
  const keep = (chunk) => {
    const room = maxOutputBytes - size;
    if (room <= 0) { truncated = true; return; }
    const kept = chunk.length > room ? chunk.subarray(0, room) : chunk;
    truncated = truncated || kept.length < chunk.length;
    chunks.push(kept);
    size += kept.length;
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.once('error', () => finish(null));
  child.once('close', (code) => finish(code));
}
function stream(m) {
  const { cwd, env } = m.options;
  let child, done = false;
  const exit = (code, failure) => {
    if (done) return;
    done = true;
    groups.delete(m.id);
    if (child) killGroup(child);
    process.send({ id: m.id, event: 'exit', code, failure });
  };
  try {
    child = spawn(m.file, m.args, { cwd, env, detached: true, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  } catch (error) {
    exit(null, String(error && error.message));
    return;
  }
  groups.set(m.id, child);
  child.once('spawn', () => process.send({ id: m.id, event: 'spawn', pid: child.pid }));
  child.once('error', (error) => exit(null, String(error.message)));
  child.once('close', (code) => exit(code, null));
  child.stdin.on('error', () => {});
  child.stdout.on('data', (chunk) => process.send({ id: m.id, event: 'stdout', data: chunk.toString('base64') }));
  child.stderr.on('data', (chunk) => process.send({ id: m.id, event: 'stderr', data: chunk.toString('base64') }));
}
process.on('message', (m) => {
  if (m.kind === 'stop') {
    const child = groups.get(m.id);
    if (child) killGroup(child);
  } else if (m.kind === 'stdin') {
    const child = groups.get(m.id);
    if (child && child.stdin.writable) child.stdin.write(m.data);
  } else if (m.kind === 'stream') {
    stream(m);
  } else if (m.kind === 'group') {
    group(m);
  } else {
    exec(m);
  }
});
`;

/**
 * Starts commands (git, the sandbox's, and stdio tool servers as streams) from a small helper
 * process instead of the service's own. A fork copies the parent's page tables: from a service
 * holding a few hundred megabytes it costs several times what it costs from a small process
 * (measured: 16 ms against 2.3 ms of wall time per `git --version`, 7.5 ms against 1 ms of the
 * parent's CPU), and a task that writes files runs about ten git commands. One helper serves the
 * whole process, started at the first command. When its channel closes (the service exited, even
 * without a chance to stop anything) it kills every group it started.
 *
 * If the helper cannot be started or dies, the commands it was running fail (they may have run, so
 * they are never repeated), a stream reports its exit, and every later command is started directly,
 * as without the helper.
 */
export class SpawnHelper {
  private child: ChildProcess | null = null;
  private failed = false;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: unknown) => void; reject: (e: Error) => void }>();
  private readonly streams = new Map<number, GroupStreamEvents>();

  /** Runs the command in the helper; null when the helper is not available (run it directly). */
  run(file: string, args: readonly string[], options: HelperExecOptions): Promise<HelperReply> | null {
    return this.request<HelperReply>({ kind: 'exec', id: this.nextId++, file, args, options });
  }

  /**
   * Runs the command in a process group of its own (see {@link GroupRunOptions}); `signal` stops it.
   * Null when the helper is not available (run it directly). Rejects when the helper was lost while
   * the command ran: the command may have run, and may still be running.
   */
  runGroup(
    file: string,
    args: readonly string[],
    options: GroupRunOptions,
    signal?: AbortSignal,
  ): Promise<GroupRunOutcome> | null {
    const id = this.nextId++;
    const answer = this.request<GroupRunOutcome>({ kind: 'group', id, file, args, options });
    if (answer === null || signal === undefined) {
      return answer;
    }
    const stop = (): void => {
      if (this.pending.has(id)) {
        this.child?.send({ kind: 'stop', id } satisfies Request, () => undefined);
      }
    };
    if (signal.aborted) {
      stop();
    } else {
      signal.addEventListener('abort', stop, { once: true });
    }
    return answer.finally(() => signal.removeEventListener('abort', stop));
  }

  /**
   * Starts a long-running command in a process group of its own, spawned by the helper (see
   * {@link GroupStreamEvents}). Null when the helper is not available (start it with
   * {@link startGroupStreamHere}). A stream lost with the helper reports its exit with the reason;
   * the helper kills every group it started when the service's channel closes, so a server started
   * this way never outlives the service, even one killed without a chance to stop it.
   */
  startStream(
    file: string,
    args: readonly string[],
    options: GroupStreamOptions,
    events: GroupStreamEvents,
  ): GroupStream | null {
    const child = this.ensure();
    if (child === null) {
      return null;
    }
    const id = this.nextId++;
    this.streams.set(id, events);
    child.channel?.ref();
    const send = (message: Request): Promise<void> =>
      new Promise((resolve, reject) => {
        const current = this.child;
        if (current === null || !this.streams.has(id)) {
          reject(new Error('the command is not running'));
          return;
        }
        current.send(message, (error) => (error ? reject(error) : resolve()));
      });
    send({ kind: 'stream', id, file, args, options }).catch((error: unknown) =>
      this.streamEvent({ id, event: 'exit', code: null, failure: (error as Error).message }),
    );
    return {
      write: (chunk) => send({ kind: 'stdin', id, data: chunk }),
      stop: () => {
        send({ kind: 'stop', id }).catch(() => undefined);
      },
    };
  }

  private streamEvent(message: StreamEvent): void {
    const events = this.streams.get(message.id);
    if (!events) {
      return;
    }
    switch (message.event) {
      case 'spawn':
        events.onSpawn(message.pid);
        break;
      case 'stdout':
        events.onStdout(Buffer.from(message.data, 'base64'));
        break;
      case 'stderr':
        events.onStderr(Buffer.from(message.data, 'base64'));
        break;
      case 'exit':
        this.streams.delete(message.id);
        this.unrefWhenIdle();
        events.onExit(message.code, message.failure);
        break;
    }
  }

  private unrefWhenIdle(): void {
    if (this.pending.size === 0 && this.streams.size === 0) {
      this.child?.channel?.unref();
    }
  }

  private request<T>(request: Exclude<Request, { kind: 'stop' | 'stdin' | 'stream' }>): Promise<T> | null {
    const child = this.ensure();
    if (child === null) {
      return null;
    }
    return new Promise<T>((resolve, reject) => {
      this.pending.set(request.id, { resolve: resolve as (reply: unknown) => void, reject });
      child.channel?.ref();
      child.send(request, (error) => {
        if (error) {
          this.settle(request.id, null, error);
        }
      });
    });
  }

  /** Stops the helper (tests; the helper also exits by itself when the service does). */
  close(): void {
    const child = this.child;
    this.child = null;
    if (child?.connected) {
      child.disconnect();
    }
  }

  private ensure(): ChildProcess | null {
    if (this.child !== null || this.failed) {
      return this.child;
    }
    try {
      const child = spawn(process.execPath, ['-e', HELPER_SOURCE], {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        windowsHide: true,
      });
      child.on('message', (message: { id: number; event?: string }) => {
        if (message.event !== undefined) {
          this.streamEvent(message as StreamEvent);
          return;
        }
        const { id, ...reply } = message;
        this.settle(id, reply, null);
      });
      child.on('error', (error) => this.lost(child, error));
      child.on('exit', (code, signal) => this.lost(child, new Error(`the helper exited (${signal ?? code})`)));
      // Neither the helper nor its channel keeps the service alive; the channel holds while commands run.
      child.unref();
      child.channel?.unref();
      this.child = child;
      return child;
    } catch {
      this.failed = true;
      return null;
    }
  }

  private settle(id: number, reply: unknown, error: Error | null): void {
    const waiting = this.pending.get(id);
    if (!waiting) {
      return;
    }
    this.pending.delete(id);
    this.unrefWhenIdle();
    if (reply !== null) {
      waiting.resolve(reply);
    } else {
      waiting.reject(error ?? new Error('the helper did not answer'));
    }
  }

  private lost(child: ChildProcess, error: Error): void {
    if (this.child === child) {
      this.child = null;
      this.failed = true;
    }
    for (const id of [...this.pending.keys()]) {
      this.settle(id, null, error);
    }
    for (const id of [...this.streams.keys()]) {
      this.streamEvent({ id, event: 'exit', code: null, failure: error.message });
    }
  }
}

/**
 * Runs the command from this process, answering what the helper would: the path without a helper,
 * and after it has failed. Never rejects.
 */
export function execHere(file: string, args: readonly string[], options: HelperExecOptions): Promise<HelperReply> {
  return new Promise((resolve) => {
    const child = execFile(
      file,
      args,
      { ...options, killSignal: 'SIGKILL', windowsHide: true, encoding: 'utf8' },
      (error, stdout, stderr) => {
        const numeric = error !== null && typeof error.code === 'number';
        resolve({
          code: error === null ? 0 : numeric ? (error.code as number) : null,
          killed: error?.killed === true,
          failure: error !== null && (!numeric || error.killed === true) ? error.message : null,
          stdout,
          stderr,
        });
      },
    );
    // Commands here never need input; an open stdin would only let a stray prompt wait for the timeout.
    child.stdin?.end();
  });
}

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
 * Runs the command in a process group of its own from this process, answering what the helper
 * would: the path without a helper, and after it has failed.
 */
export async function runGroupHere(
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

/** Variables of the service's own environment a long-running command may inherit: never its secrets. */
export const MINIMAL_ENV_NAMES = [
  'HOME',
  'LANG',
  'LC_ALL',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'TMPDIR',
  'USER',
] as const;

/** The minimal environment from `source` (the names above that are set), with `own` variables on top. */
export function minimalEnvironment(
  source: Readonly<Record<string, string | undefined>>,
  own: Readonly<Record<string, string>>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of MINIMAL_ENV_NAMES) {
    const value = source[name];
    if (value !== undefined) {
      env[name] = value;
    }
  }
  return { ...env, ...own };
}

/**
 * Starts a long-running command in a process group of its own from this process, with the helper's
 * contract (see {@link SpawnHelper.startStream}): the path without a helper, and after it has failed.
 * Such a command is killed with its group by a stop or once it exits, but not when this process is
 * killed outright.
 */
export function startGroupStreamHere(
  file: string,
  args: readonly string[],
  options: GroupStreamOptions,
  events: GroupStreamEvents,
): GroupStream {
  let done = false;
  let child: ChildProcess | null = null;
  const exit = (code: number | null, failure: string | null): void => {
    if (done) {
      return;
    }
    done = true;
    if (child) {
      killGroup(child);
    }
    events.onExit(code, failure);
  };
  try {
    const started = spawn(file, [...args], {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['pipe', 'pipe', 'pipe'],
      windowsHide: true,
    });
    child = started;
    started.once('spawn', () => events.onSpawn(started.pid));
    started.once('error', (error) => exit(null, error.message));
    started.once('close', (code) => exit(code, null));
    started.stdin.on('error', () => undefined);
    started.stdout.on('data', (chunk: Buffer) => events.onStdout(chunk));
    started.stderr.on('data', (chunk: Buffer) => events.onStderr(chunk));
  } catch (error) {
    queueMicrotask(() => exit(null, (error as Error).message));
  }
  return {
    write: (chunk) =>
      new Promise((resolve, reject) => {
        const stdin = child?.stdin;
        if (!stdin || done || !stdin.writable) {
          reject(new Error('the command is not running'));
          return;
        }
        if (stdin.write(chunk)) {
          resolve();
        } else {
          stdin.once('drain', () => resolve());
        }
      }),
    stop: () => {
      if (child) {
        killGroup(child);
      }
    },
  };
}

/** The process's one helper. */
export const spawnHelper = new SpawnHelper();
