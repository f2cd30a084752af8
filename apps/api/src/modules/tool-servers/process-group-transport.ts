import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

import { killGroup } from '@app/platform';

/** The variables of the service's own environment a server is given: never its secrets. */
const INHERITED_ENV = ['HOME', 'LANG', 'LC_ALL', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'TMPDIR', 'USER'];
/** A stderr line longer than this is cut before it is logged. */
const MAX_STDERR_LINE = 2_000;

export interface ProcessGroupOptions {
  command: string;
  args: readonly string[];
  env: Readonly<Record<string, string>>;
  /** Each stderr line of the server (cut to a bounded length). */
  onStderr: (line: string) => void;
}

/**
 * The MCP stdio transport over a child started in a process group of its own (detached), so a stop
 * kills the server and everything it started. The child sees a minimal environment plus its own
 * configured variables: the service's secrets stay out of it. A long-lived server is started
 * directly rather than through the spawn helper, which runs commands to completion: one fork per
 * server start is not worth relaying a stream through a second process.
 */
export class ProcessGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child: ChildProcessWithoutNullStreams | null = null;
  private readonly buffer = new ReadBuffer();
  private stderrTail = '';
  private closed = false;

  constructor(private readonly options: ProcessGroupOptions) {}

  /** The server's process id while it runs. */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  start(): Promise<void> {
    return new Promise((resolve, reject) => {
      const env: Record<string, string> = {};
      for (const name of INHERITED_ENV) {
        const value = process.env[name];
        if (value !== undefined) {
          env[name] = value;
        }
      }
      Object.assign(env, this.options.env);
      let child: ChildProcessWithoutNullStreams;
      try {
        child = spawn(this.options.command, [...this.options.args], {
          env,
          detached: true,
          stdio: ['pipe', 'pipe', 'pipe'],
          windowsHide: true,
        });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      this.child = child;
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
        this.finish();
      });
      child.once('spawn', () => resolve());
      child.once('exit', () => this.finish());
      child.stdin.on('error', (error) => this.onerror?.(error));
      child.stdout.on('data', (chunk: Buffer) => this.read(chunk));
      child.stderr.on('data', (chunk: Buffer) => this.stderr(chunk));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const stdin = this.child?.stdin;
      if (!stdin || this.closed) {
        reject(new Error('the server is not running'));
        return;
      }
      if (stdin.write(serializeMessage(message))) {
        resolve();
      } else {
        stdin.once('drain', () => resolve());
      }
    });
  }

  /** Kills the server's whole process group. */
  close(): Promise<void> {
    if (this.child) {
      killGroup(this.child);
    }
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
    if (this.child) {
      // Whatever the server left running goes with it.
      killGroup(this.child);
    }
    if (this.stderrTail.trim() !== '') {
      this.options.onStderr(this.stderrTail);
    }
    this.buffer.clear();
    this.onclose?.();
  }
}
