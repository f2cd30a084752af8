import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';

import { reportSinkProblem } from './sink-diagnostics';
import { createInlineSinkHost, type SinkHost, type SinkHostConfig } from './sink-host';
import { settleWithin } from './sink-destination';
import type { HostReply, HostRequest } from './sink-worker-protocol';

const HOST_ID = '__sink_thread__';

export interface WorkerSinkHostLimits {
  /** Records wait at most this long on the logging thread before they are handed over together. */
  lingerMs: number;
  /** A batch this large is handed over at once. */
  maxBatchChars: number;
  /** Waiting plus handed over but not yet taken by the sink thread: beyond this, records are dropped. */
  maxBacklogChars: number;
  /** How long close() waits for the sink thread to drain before stopping it. */
  closeDeadlineMs: number;
}

const DEFAULT_LIMITS: WorkerSinkHostLimits = {
  lingerMs: 2,
  maxBatchChars: 256 * 1024,
  maxBacklogChars: 64 * 1024 * 1024,
  closeDeadlineMs: 10_000,
};

/**
 * The compiled sink thread entry, when this module runs from compiled output. Under a TypeScript
 * test runner there is none, and callers fall back to inline sinks.
 */
export function sinkWorkerEntry(): string | undefined {
  const entry = join(__dirname, 'sink-worker.js');
  return __filename.endsWith('.js') && existsSync(entry) ? entry : undefined;
}

/**
 * Runs the sinks on a thread of their own. The logging thread only queues each serialized record
 * (an array push) and hands the queue over every few milliseconds in one message; routing, text
 * rendering, batching and the file, socket and HTTP calls all happen on the sink thread. On a busy
 * server this takes most of the cost of a log record off the thread that serves requests.
 *
 * Should the sink thread die, a diagnostic is raised and the sinks reopen inline, so records keep
 * flowing; what was in flight at that moment is lost.
 */
export class WorkerSinkHost implements SinkHost {
  private readonly worker: Worker;
  private lines: string[] = [];
  private levels: number[] = [];
  private queuedChars = 0;
  /** Handed over, not yet acknowledged by the sink thread. */
  private inFlightChars = 0;
  private dropped = 0;
  private timer: NodeJS.Timeout | undefined;
  private nextRequestId = 1;
  private readonly waiting = new Map<number, (error?: string) => void>();
  private fallback: SinkHost | undefined;
  private closing: Promise<void> | undefined;
  private exited = false;

  private readonly limits: WorkerSinkHostLimits;

  constructor(
    entry: string,
    private config: SinkHostConfig,
    limits: Partial<WorkerSinkHostLimits> = {},
  ) {
    this.limits = { ...DEFAULT_LIMITS, ...limits };
    this.worker = new Worker(entry, { workerData: config });
    // Like the inline sinks' timers, the thread never keeps the process alive on its own; close() drains it.
    this.worker.unref();
    this.worker.on('message', (reply: HostReply) => this.onReply(reply));
    this.worker.on('error', (error: Error) => this.onStopped(error));
    this.worker.on('exit', (code: number) => this.onStopped(new Error(`sink thread exited with code ${code}`)));
  }

  write(line: string, level: number): void {
    if (this.fallback) {
      this.fallback.write(line, level);
      return;
    }
    if (this.closing) {
      return;
    }
    if (this.queuedChars + this.inFlightChars + line.length > this.limits.maxBacklogChars) {
      this.dropped++;
      reportSinkProblem(HOST_ID, 'backlog full, dropping records', `${this.dropped} dropped so far`);
      return;
    }
    this.lines.push(line);
    this.levels.push(level);
    this.queuedChars += line.length;
    if (this.queuedChars >= this.limits.maxBatchChars) {
      this.handOver();
    } else if (!this.timer) {
      this.timer = setTimeout(() => this.handOver(), this.limits.lingerMs);
      this.timer.unref();
    }
  }

  flush(): Promise<void> {
    if (this.fallback) {
      return this.fallback.flush();
    }
    this.handOver();
    return this.request({ type: 'flush', id: 0 }).then(() => undefined);
  }

  /** Records queued so far go to the old sinks (the thread takes messages in order), later ones to the new. */
  async reconfigure(config: SinkHostConfig): Promise<void> {
    if (this.closing) {
      return;
    }
    if (this.fallback) {
      await this.fallback.reconfigure(config);
      this.config = config;
      return;
    }
    this.handOver();
    // Set first: should the thread die meanwhile, the inline fallback opens the new sinks.
    const previous = this.config;
    this.config = config;
    const error = await this.request({ type: 'reconfigure', id: 0, config });
    if (error !== undefined) {
      this.config = previous;
      throw new Error(`log sinks not reconfigured: ${error}`);
    }
  }

  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    if (this.fallback) {
      await this.fallback.close();
      return;
    }
    this.handOver();
    await settleWithin(this.request({ type: 'close', id: 0 }), this.limits.closeDeadlineMs);
    this.exited = true;
    await this.worker.terminate();
  }

  private handOver(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.lines.length === 0 || this.exited) {
      return;
    }
    // One joined string and one byte array copy across far faster than an array of small strings.
    const message: HostRequest = {
      type: 'records',
      text: this.lines.join(''),
      levels: Uint8Array.from(this.levels),
      chars: this.queuedChars,
    };
    this.inFlightChars += this.queuedChars;
    this.lines = [];
    this.levels = [];
    this.queuedChars = 0;
    this.worker.postMessage(message);
  }

  /** Sends a request (its id is assigned here); resolves with the thread's error text, if any. */
  private request(message: Exclude<HostRequest, { type: 'records' }>): Promise<string | undefined> {
    if (this.exited) {
      return Promise.resolve(undefined);
    }
    const id = this.nextRequestId++;
    const done = new Promise<string | undefined>((resolve) => this.waiting.set(id, resolve));
    this.worker.postMessage({ ...message, id });
    return done;
  }

  private onReply(reply: HostReply): void {
    if (reply.type === 'taken') {
      this.inFlightChars -= reply.chars;
      return;
    }
    const resolve = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    resolve?.(reply.error);
  }

  /** The thread failed or exited unasked: report it once, reopen the sinks inline, release waiters. */
  private onStopped(error: Error): void {
    if (this.exited) {
      return;
    }
    this.exited = true;
    reportSinkProblem(HOST_ID, 'sink thread stopped, sinks reopened on the main thread', error);
    if (!this.closing) {
      this.fallback = createInlineSinkHost(this.config);
      const lines = this.lines;
      const levels = this.levels;
      this.lines = [];
      this.levels = [];
      this.queuedChars = 0;
      lines.forEach((line, i) => this.fallback?.write(line, levels[i] ?? 0));
    }
    this.waiting.forEach((resolve) => resolve());
    this.waiting.clear();
  }
}
