import { Injectable } from '@nestjs/common';

import { type QuotaLimits, QuotaTracker, type QuotaWindowSnapshot } from '@app/domain';

/**
 * Per-provider quota windows (requests and tokens per minute, hour and day), fed by every recorded
 * call. Counts are per replica; they are rebuilt from the call records at startup.
 */
@Injectable()
export class ProviderQuotas {
  private readonly tracker = new QuotaTracker();

  configure(provider: string, limits: QuotaLimits): void {
    this.tracker.configure(provider, limits);
  }

  remove(provider: string): void {
    this.tracker.remove(provider);
  }

  record(provider: string, tokens: number, atMs: number = Date.now()): void {
    this.tracker.record(provider, { requests: 1, tokens }, atMs);
  }

  hasCapacity(provider: string, estimatedTokens = 0, nowMs: number = Date.now()): boolean {
    return this.tracker.hasCapacity(provider, nowMs, estimatedTokens);
  }

  nextResetMs(provider: string, nowMs: number = Date.now()): number | null {
    return this.tracker.nextResetMs(provider, nowMs);
  }

  snapshot(provider: string, nowMs: number = Date.now()): QuotaWindowSnapshot[] {
    return this.tracker.snapshot(provider, nowMs);
  }
}
