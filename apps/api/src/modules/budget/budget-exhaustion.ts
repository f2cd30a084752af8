import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

/** A budget that ran out: the company's monthly budget (hard stop) or one agent's daily limit. */
export interface BudgetExhausted {
  limit: 'monthly' | 'agent_daily';
  /** The agent whose call hit the limit. */
  agentId: string;
  reason: string;
  at: Date;
}

/** Told when a budget runs out (security lowers autonomy to `supervised` there). Must not throw. */
export type ExhaustionListener = (event: BudgetExhausted) => void | Promise<void>;

/**
 * The exhaustion hook: listeners hear once per limit and scope (the billing period for the monthly
 * budget, the agent and UTC day for a daily limit) on this replica.
 */
@Injectable()
export class BudgetExhaustion {
  private readonly listeners = new Set<ExhaustionListener>();
  private readonly told = new Set<string>();
  private readonly log: Logger;

  constructor(@Inject(LOGGING_RUNTIME) logging: LoggingRuntime) {
    this.log = logging.forName('budget.exhaustion');
  }

  /** Adds a listener; answers the function that removes it. */
  onExhausted(listener: ExhaustionListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells the listeners, unless they already heard of this limit in this scope. */
  async exhausted(event: BudgetExhausted, scope: string): Promise<void> {
    const key = `${event.limit}:${scope}`;
    if (this.told.has(key)) {
      return;
    }
    this.told.add(key);
    this.log.warn({ limit: event.limit, agent_id: event.agentId, reason: event.reason }, 'budget.exhaustion.reached');
    for (const listener of this.listeners) {
      try {
        await listener(event);
      } catch (error) {
        this.log.error({ err: error, limit: event.limit }, 'budget.exhaustion.listener_failed');
      }
    }
  }
}
