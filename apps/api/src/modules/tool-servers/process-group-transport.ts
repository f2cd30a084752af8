import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import {
  type GroupStream,
  type GroupStreamEvents,
  minimalEnvironment,
  type SpawnHelper,
  spawnHelper,
  startGroupStreamHere,
} from '@app/platform';

/** A stderr line longer than this is cut before it is logged. */
const MAX_STDERR_LINE = 2_000;

export interface ProcessGroupOptions {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** Each stderr line of the server (cut to a bounded length). */
  onStderr: (line: string) => void;
  /** The spawn helper that starts the server; null starts it from this process. */
  helper?: SpawnHelper | null;
}

/**
 * The MCP stdio transport over a server started by the spawn helper as a long-running stream (see
 * SpawnHelper.startStream): in a process group of its own, so a stop kills the server and everything
 * it started, and killed by the helper if the service itself dies. The server sees a minimal
 * environment plus its own configured variables: the service's secrets stay out of it. Without the
 * helper (it could not start, or died) the server is started from this process under the same rules.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private stream: GroupStream | null = null;
  private processId: number | undefined;
  private readonly buffer = new ReadBuffer();
  private stderrTail = '';
  private closed = false;

  constructor(private readonly options: ProcessGroupOptions) {}

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.closed ? undefined : this.processId;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      let started = false;
      const events: GroupStreamEvents = {
        onSpawn: (pid) => {
          started = true;
          this.processId = pid;
          resolve();
        },
        onStdout: (chunk) => this.read(chunk),
        onStderr: (chunk) => this.stderr(chunk),
        onExit: (code, failure) => {
          if (!started) {
            reject(new Error(failure ?? `the server exited at start (${String(code)})`));
          } else if (failure !== null) {
            this.onerror?.(new Error(failure));
          }
          this.finish();
        },
      };
      const env = minimalEnvironment(process.env, this.options.env);
      const helper = this.options.helper === undefined ? spawnHelper : this.options.helper;
      const args = [...this.options.args];
      this.stream =
        helper?.startStream(this.options.command, args, { env }, events) ??
        startGroupStreamHere(this.options.command, args, { env }, events);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    if (!this.stream || this.closed) {
      return Promise.reject(new Error('the server is not running'));
    }
    return this.stream.write(serializeMessage(message));
  }

  /** Kills the server's whole process group. */
  close(): Promise<void> {
    this.stream?.stop();
    this.finish();
    return Promise.resolve();
  }

  private read(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      if (message === null) {
        return;
      }
      this.onmessage?.(message);
    }
  }

  private stderr(chunk: Buffer): void {
    const lines = (this.stderrTail + chunk.toString('utf8')).split('\n');
    this.stderrTail = (lines.pop() ?? '').slice(0, MAX_STDERR_LINE);
    for (const line of lines) {
      if (line.trim() !== '') {
        this.options.onStderr(line.slice(0, MAX_STDERR_LINE));
      }
    }
  }

  private finish(): void {
    if (this.closed) {
      return;
    }
    this.closed = true;
    // Whatever the server left running goes with it.
    this.stream?.stop();
    if (this.stderrTail.trim() !== '') {
      this.options.onStderr(this.stderrTail);
    }
    this.buffer.clear();
    this.onclose?.();
  }
}
