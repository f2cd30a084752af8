import type { LineWriter } from './routing-stream';

/** A sink as the factory drives it: fed serialized lines by pino.multistream, drained on flush/close. */
export interface SinkDestination extends LineWriter {
  /** Resolves once everything written so far has been handed to the OS (or sent/dropped, for network sinks). */
  flush(): Promise<void>;
  /** Flushes, then releases files, sockets and timers. Writes after close are ignored. */
  close(): Promise<void>;
}

/** Waits for `work` but never longer than `ms`, so a wedged destination cannot hang shutdown. */
export async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
    timer.unref();
  });
  try {
    await Promise.race([work.then(noop, noop), deadline]);
  } finally {
    clearTimeout(timer);
  }
}

function noop(): void {}
