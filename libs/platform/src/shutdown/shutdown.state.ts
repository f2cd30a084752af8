import { Inject, Injectable, type BeforeApplicationShutdown } from '@nestjs/common';

import type { LoggingRuntime } from '../logging';
import { LOGGING_RUNTIME } from '../logging-nest/logging.tokens';

/**
 * Graceful shutdown, first step: readiness turns 503 as soon as shutdown begins so the load balancer
 * stops routing here, while in-flight requests still drain before the HTTP server closes.
 */
@Injectable()
export class ShutdownState implements BeforeApplicationShutdown {
  private draining = false;

  constructor(@Inject(LOGGING_RUNTIME) private readonly logging: LoggingRuntime) {}

  get isDraining(): boolean {
    return this.draining;
  }

  beginDrain(signal?: string): void {
    if (!this.draining) {
      this.draining = true;
      this.logging.forName('api').info({ signal: signal ?? null }, 'api.shutdown.started');
    }
  }

  beforeApplicationShutdown(signal?: string): void {
    this.beginDrain(signal);
  }
}
