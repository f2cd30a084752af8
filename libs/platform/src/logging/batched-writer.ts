import { reportSinkProblem } from './sink-diagnostics';

/** The part of a Writable the batcher uses: an async write that calls back once the chunk is out. */
export interface ChunkTarget {
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
}

export interface BatchedWriterOptions {
  identifier: string;
  /** Upper bound of one coalesced chunk (whole lines are never split, so one long line may exceed it). */
  maxChunkChars: number;
  /** Beyond this backlog new lines are dropped rather than growing memory without bound. */
  maxPendingChars: number;
  /**
   * How long a line may wait for company before an idle writer writes it (0: at once). At a high
   * record rate this turns one file system call per record or two into one per interval; a full
   * chunk, `flush()` and `close()` never wait.
   */
  lingerMs?: number;
}

/**
 * Coalesces log lines into few large writes: lines wait up to `lingerMs` for company, and while one
 * write is in flight further lines queue up and go out together when it completes. This keeps the
 * per-record cost on the event loop to an array push, and the number of file system calls
 * independent of the record rate.
 */
export class BatchedWriter {
  private pending: string[] = [];
  private head = 0;
  private pendingChars = 0;
  private writing = false;
  private dropped = 0;
  private idleWaiters: Array<() => void> = [];
  private lingering: NodeJS.Timeout | undefined;

  constructor(
    private readonly target: ChunkTarget,
    private readonly options: BatchedWriterOptions,
  ) {}

  write(line: string): void {
    if (this.pendingChars + line.length > this.options.maxPendingChars) {
      this.dropped++;
      reportSinkProblem(this.options.identifier, 'backlog full, dropping records', `${this.dropped} dropped so far`);
      return;
    }
    this.pending.push(line);
    this.pendingChars += line.length;
    if (!this.writing) {
      this.schedule();
    }
  }

  /** Writes what is waiting now and resolves once everything written so far has reached the target. */
  flush(): Promise<void> {
    if (!this.writing && this.pending.length === this.head) {
      return Promise.resolve();
    }
    const done = new Promise<void>((resolve) => this.idleWaiters.push(resolve));
    if (!this.writing) {
      this.writeNext();
    }
    return done;
  }

  /** With the writer idle: write now, or let the backlog linger for company (once per backlog). */
  private schedule(): void {
    const linger = this.options.lingerMs ?? 0;
    if (linger <= 0 || this.pendingChars >= this.options.maxChunkChars || this.idleWaiters.length > 0) {
      this.writeNext();
    } else if (!this.lingering) {
      this.lingering = setTimeout(() => {
        this.lingering = undefined;
        if (!this.writing) {
          this.writeNext();
        }
      }, linger);
      // Waiting lines never keep the process alive; shutdown flushes them.
      this.lingering.unref();
    }
  }

  private writeNext(): void {
    if (this.lingering) {
      clearTimeout(this.lingering);
      this.lingering = undefined;
    }
    const chunk = this.takeChunk();
    if (chunk === undefined) {
      this.writing = false;
      const waiters = this.idleWaiters;
      this.idleWaiters = [];
      waiters.forEach((resolve) => resolve());
      return;
    }
    this.writing = true;
    this.target.write(chunk, (error) => {
      if (error) {
        reportSinkProblem(this.options.identifier, 'write failed', error);
      }
      this.writing = false;
      if (this.pending.length === this.head) {
        this.writeNext(); // idle: settles the flush waiters
      } else {
        this.schedule();
      }
    });
  }

  private takeChunk(): string | undefined {
    if (this.pending.length === this.head) {
      return undefined;
    }
    let end = this.head;
    let chars = 0;
    while (
      end < this.pending.length &&
      (end === this.head || chars + this.pending[end].length <= this.options.maxChunkChars)
    ) {
      chars += this.pending[end].length;
      end++;
    }
    const chunk = end - this.head === 1 ? this.pending[this.head] : this.pending.slice(this.head, end).join('');
    this.pendingChars -= chars;
    // A moving head avoids re-slicing a long backlog on every chunk; the array is compacted once drained.
    if (end === this.pending.length) {
      this.pending = [];
      this.head = 0;
    } else if (end > 4096 && end * 2 > this.pending.length) {
      this.pending = this.pending.slice(end);
      this.head = 0;
    } else {
      this.head = end;
    }
    return chunk;
  }
}
