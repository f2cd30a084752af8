import type { BeforeApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';

import type { BatchedThrottlerStorage } from './batched-throttler.storage';

const FINAL_FLUSH_MS = 1000;

/**
 * Counts the exact windows (the authentication endpoints' 10 a minute) in one storage and every
 * other window in the batched one, and flushes the batched counters once more at shutdown.
 */
export class SplitThrottlerStorage implements ThrottlerStorage, BeforeApplicationShutdown {
  constructor(
    private readonly exact: ThrottlerStorage,
    private readonly exactWindows: ReadonlySet<string>,
    private readonly batched: BatchedThrottlerStorage,
  ) {}

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    name: string,
  ): ReturnType<ThrottlerStorage['increment']> {
    const storage = this.exactWindows.has(name) ? this.exact : this.batched;
    return storage.increment(key, ttl, limit, blockDuration, name);
  }

  async beforeApplicationShutdown(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FINAL_FLUSH_MS);
      timer.unref();
    });
    try {
      await Promise.race([this.batched.close(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }
}
