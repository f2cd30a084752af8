import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel, type CostEntry, type SpendControl, type SpendRequest, type SpendVerdict } from '@app/domain';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { CostLedgerRepository } from './cost-ledger.repository';

/**
 * The engine's spend control: each model call's cost record is written with its rollup rows in
 * one transaction, logged (`budget.record.added`) and announced on the `budget` channel.
 */
@Injectable()
export class CostLedger implements SpendControl {
  private readonly log: Logger;

  constructor(
    private readonly ledger: CostLedgerRepository,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('budget.ledger');
  }

  reserve(_request: SpendRequest): Promise<SpendVerdict> {
    return Promise.resolve({ ok: true, reservationId: null });
  }

  release(_reservationId: string): Promise<void> {
    return Promise.resolve();
  }

  async record(entry: CostEntry, _reservationId: string | null): Promise<void> {
    await this.ledger.record(entry);
    const { inputTokens, outputTokens, costUsd: cost } = entry;
    this.log.info(
      { provider: entry.provider, model: entry.model, input_tokens: inputTokens, output_tokens: outputTokens, cost },
      'budget.record.added',
    );
    await announce(this.bus, this.log, {
      channel: Channel.Budget,
      event_type: 'cost.recorded',
      payload: {
        agent_id: entry.agentId,
        task_id: entry.taskId,
        provider: entry.provider,
        model: entry.model,
        input_tokens: inputTokens,
        output_tokens: outputTokens,
        total_tokens: inputTokens + outputTokens,
        cost_usd: cost,
        call_category: entry.callCategory,
        timestamp: entry.timestamp.toISOString(),
      },
    });
  }
}
