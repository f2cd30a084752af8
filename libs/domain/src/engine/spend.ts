import type { PreflightAgent, PreflightTask } from './preflight';

/** Call categories of a cost record (spec "Cost record"). */
export const CALL_CATEGORIES = ['productive', 'coordination', 'system'] as const;
export type CallCategory = (typeof CALL_CATEGORIES)[number];

/** One model call's cost as the engine hands it over to be written. */
export interface CostEntry {
  readonly id: string;
  readonly agentId: string;
  readonly taskId: string | null;
  readonly provider: string;
  readonly model: string;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly costUsd: number;
  readonly callCategory: CallCategory;
  readonly timestamp: Date;
}

/** A model call about to start: who makes it and an upper estimate of what it will cost. */
export interface SpendRequest {
  readonly task: PreflightTask;
  readonly agent: PreflightAgent;
  readonly provider: string;
  readonly model: string;
  readonly estimatedCost: number;
}

/** Go ahead (holding a reservation to settle or release), or refuse with a 6xxx code. */
export type SpendVerdict = { ok: true; reservationId: string | null } | { ok: false; reason: string; code: number };

/**
 * How runs spend, plugged into the engine by the budget module: before every model call the call's
 * estimated cost is reserved against the limits (or refused); afterwards its cost record is written,
 * settling the reservation in the same transaction; a call that failed without usage releases it.
 */
export interface SpendControl {
  reserve(request: SpendRequest): Promise<SpendVerdict>;
  record(entry: CostEntry, reservationId: string | null): Promise<void>;
  release(reservationId: string): Promise<void>;
}
