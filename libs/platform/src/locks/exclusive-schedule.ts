import type { Logger } from 'pino';

import type { PersistenceState } from '../persistence/database.service';
import type { DistributedLock } from './distributed-lock';

/** The longest wait a timer takes (a longer one would fire at once). */
const MAX_TIMEOUT_MS = 2_147_483_647;

/** What a pass came to: its value, or `ran: false` when it was skipped or failed. */
export type PassOutcome<T> = { ran: true; value: T } | { ran: false };

export interface ExclusiveScheduleOptions<T> {
  /** The lock's name: one replica at a time runs a pass; the others skip that round. */
  name: string;
  /**
   * Milliseconds from the end of one pass to the start of the next, read before each wait (a
   * setting's change applies from the next pass); null pauses the schedule until `reschedule()`.
   */
  intervalMs: number | (() => number | null);
  /** The pass, run under the lock. */
  pass: (now: Date) => Promise<T>;
  /** Checked before the lock is asked for: false skips the pass (a feature turned off). */
  enabled?: () => boolean | Promise<boolean>;
  lock: Pick<DistributedLock, 'tryRunExclusive'>;
  /** Passes are skipped while persistence is not `ready` (connecting, restoring, closed). */
  database: { readonly state: PersistenceState };
  log: Logger;
  /** The event logged (ERROR) when a pass fails, e.g. `audit.retention.failed`. */
  failedEvent: string;
}

/**
 * Work that one replica at a time does periodically (a sweep, a retention pass, a review): after
 * `start()`, a pass every `intervalMs` — the wait counts from the end of the previous pass, so
 * passes of one replica never overlap — under a try-lock of `name` (the distributed lock: a
 * Postgres advisory lock across replicas, an in-process one on SQLite), so the replicas whose timer
 * fires while another holds the pass skip that round. The timer is unref'd (it never keeps the
 * process alive); a failing pass is logged and the schedule goes on; `stop()` (on shutdown) ends it,
 * and a pass already running finishes without scheduling another.
 */
export class ExclusiveSchedule<T> {
  private timer: NodeJS.Timeout | null = null;
  private started = false;
  private stopped = false;
  private running: Promise<unknown> | null = null;

  constructor(private readonly options: ExclusiveScheduleOptions<T>) {}

  /** Schedules the first pass one interval from now. Idempotent; nothing after `stop()`. */
  start(): void {
    if (this.started || this.stopped) {
      return;
    }
    this.started = true;
    this.arm();
  }

  /** No further pass on this replica. */
  stop(): void {
    this.stopped = true;
    this.disarm();
  }

  /**
   * Reads the interval again and waits it from now (a setting changed). A pass already running
   * schedules the next one when it ends, as always.
   */
  reschedule(): void {
    if (!this.started || this.stopped || this.running) {
      return;
    }
    this.disarm();
    this.arm();
  }

  /** Resolves once the pass the timer started (if any) has ended. */
  async idle(): Promise<void> {
    await this.running;
  }

  /**
   * One pass at `now`, unless persistence is not ready, the feature is off or another replica holds
   * the pass. Never throws: a failure is logged and answers `ran: false`.
   */
  async runOnce(now: Date = new Date()): Promise<PassOutcome<T>> {
    const { database, enabled, lock, name, pass, log, failedEvent } = this.options;
    if (database.state !== 'ready') {
      return { ran: false };
    }
    try {
      if (enabled && !(await enabled())) {
        return { ran: false };
      }
      return await lock.tryRunExclusive(name, () => pass(now));
    } catch (error) {
      log.error({ err: error, schedule: name }, failedEvent);
      return { ran: false };
    }
  }

  private arm(): void {
    let interval: number | null;
    try {
      const { intervalMs } = this.options;
      interval = typeof intervalMs === 'function' ? intervalMs() : intervalMs;
    } catch (error) {
      this.options.log.error({ err: error, schedule: this.options.name }, this.options.failedEvent);
      interval = null;
    }
    if (interval === null || !Number.isFinite(interval) || interval < 0) {
      return;
    }
    this.timer = setTimeout(
      () => {
        this.timer = null;
        const pass = this.runOnce(new Date());
        this.running = pass;
        void pass.finally(() => {
          this.running = null;
          if (!this.stopped) {
            this.arm();
          }
        });
      },
      Math.min(interval, MAX_TIMEOUT_MS),
    );
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }
}
