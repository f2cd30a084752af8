import { setTimeout as sleep } from 'node:timers/promises';

import { customSinkIdentifier, type HttpSinkConfig } from './sink-config';
import type { SinkDestination } from './sink-destination';
import { reportSinkProblem } from './sink-diagnostics';

/** Batches kept while the endpoint is slow or down, beyond which the oldest records are dropped. */
const MAX_QUEUED_BATCHES = 100;
const MAX_BACKOFF_MS = 5_000;

type Outcome = 'sent' | 'retry' | 'rejected';

/**
 * POSTs records as JSON arrays: a batch goes out as soon as `http_batch_size` records are queued,
 * and whatever is queued goes out every `http_flush_interval_seconds`. One request is in flight at
 * a time; failed requests (network error, timeout, 408/429/5xx) are retried with exponential
 * backoff up to `http_max_retries` times, other 4xx answers drop the batch.
 */
export class HttpBatchSink implements SinkDestination {
  private queue: string[] = [];
  private sending?: Promise<void>;
  private forced = 0;
  /** Records dropped so far: queue overflow while the endpoint lags, and batches that could not be delivered. */
  private dropped = 0;
  private closing = false;
  /** Set when a batch fails during close: the rest are dropped at once, so shutdown waits one timeout at most. */
  private unreachable = false;
  private closed?: Promise<void>;
  private readonly timer: NodeJS.Timeout;
  private readonly identifier: string;
  private readonly headers: Headers;

  constructor(private readonly config: HttpSinkConfig) {
    this.identifier = customSinkIdentifier(config);
    this.headers = new Headers(config.http_headers);
    // The body is always a JSON array, whatever the configured headers say.
    this.headers.set('content-type', 'application/json');
    this.timer = setInterval(() => void this.drainAll(), config.http_flush_interval_seconds * 1000);
    this.timer.unref();
  }

  write(line: string): void {
    if (this.closing) {
      return;
    }
    // Lines are complete JSON objects, so a batch body is built by joining them: no parse, no re-stringify.
    this.queue.push(line.endsWith('\n') ? line.slice(0, -1) : line);
    const limit = this.config.http_batch_size * MAX_QUEUED_BATCHES;
    if (this.queue.length > limit) {
      const overflow = this.queue.length - limit;
      this.queue.splice(0, overflow);
      this.dropped += overflow;
      reportSinkProblem(
        this.identifier,
        'endpoint not keeping up, dropping the oldest queued records',
        `${this.dropped} record(s) dropped so far`,
      );
    }
    if (this.queue.length >= this.config.http_batch_size) {
      void this.pump();
    }
  }

  /** Records dropped so far (queue overflow and undeliverable batches). */
  get droppedRecords(): number {
    return this.dropped;
  }

  /** Sends everything queued so far, including a final partial batch. */
  flush(): Promise<void> {
    return this.drainAll();
  }

  close(): Promise<void> {
    this.closed ??= (async () => {
      clearInterval(this.timer);
      // Shutdown must stay bounded: from here on new records are ignored and each remaining batch
      // gets a single attempt, limited by the request timeout.
      this.closing = true;
      await this.drainAll();
    })();
    return this.closed;
  }

  private async drainAll(): Promise<void> {
    this.forced++;
    try {
      while (this.queue.length > 0 || this.sending) {
        await this.pump();
      }
    } finally {
      this.forced--;
    }
  }

  private pump(): Promise<void> {
    this.sending ??= this.sendQueued().finally(() => {
      this.sending = undefined;
    });
    return this.sending;
  }

  private async sendQueued(): Promise<void> {
    const size = this.config.http_batch_size;
    while (this.queue.length >= size || (this.forced > 0 && this.queue.length > 0)) {
      await this.sendBatch(this.queue.splice(0, size));
    }
  }

  private async sendBatch(batch: string[]): Promise<void> {
    if (this.unreachable) {
      this.dropBatch(batch);
      return;
    }
    const body = `[${batch.join(',')}]`;
    const attempts = this.closing ? 1 : this.config.http_max_retries + 1;
    let outcome: Outcome = 'retry';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      outcome = await this.post(body);
      if (outcome === 'sent') {
        return;
      }
      if (outcome === 'rejected' || attempt === attempts) {
        break;
      }
      await sleep(Math.min(250 * 2 ** (attempt - 1), MAX_BACKOFF_MS), undefined, { ref: false });
    }
    this.unreachable = this.closing && outcome === 'retry';
    this.dropBatch(batch);
  }

  private dropBatch(batch: string[]): void {
    this.dropped += batch.length;
    reportSinkProblem(
      this.identifier,
      'batch could not be delivered and was dropped',
      `${batch.length} record(s); ${this.dropped} dropped so far`,
    );
  }

  private async post(body: string): Promise<Outcome> {
    try {
      const response = await fetch(this.config.http_url, {
        method: 'POST',
        headers: this.headers,
        body,
        // A sink's headers may carry credentials: a redirect is refused (a failed delivery), never followed.
        redirect: 'error',
        signal: AbortSignal.timeout(this.config.http_timeout_seconds * 1000),
      });
      // Draining the body returns the connection to the keep-alive pool.
      await response.arrayBuffer().catch(() => undefined);
      if (response.ok) {
        return 'sent';
      }
      const retryable = response.status >= 500 || response.status === 408 || response.status === 429;
      reportSinkProblem(this.identifier, 'endpoint answered with an error status', `HTTP ${response.status}`);
      return retryable ? 'retry' : 'rejected';
    } catch (error) {
      reportSinkProblem(this.identifier, 'request failed', error);
      return 'retry';
    }
  }
}

export function createHttpSink(config: HttpSinkConfig): SinkDestination {
  return new HttpBatchSink(config);
}
