import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';

import { EngineModule, RunSpend } from '../engine';
import { CostLedger } from './cost-ledger';
import { CostLedgerRepository } from './cost-ledger.repository';
import { CostRollupsRepository } from './cost-rollups.repository';
import { SpendHistory } from './spend-history';

/**
 * Budget: the writer of cost records and their rollups, plugged into the engine as its spend
 * control, and spend over time for other modules (SpendHistory).
 */
@Module({
  imports: [EngineModule],
  providers: [CostLedger, CostLedgerRepository, CostRollupsRepository, SpendHistory],
  exports: [SpendHistory],
})
export class BudgetModule implements OnModuleInit, OnModuleDestroy {
  private unplug: (() => void) | null = null;

  constructor(
    private readonly spend: RunSpend,
    private readonly ledger: CostLedger,
  ) {}

  onModuleInit(): void {
    this.unplug = this.spend.use(this.ledger);
  }

  onModuleDestroy(): void {
    this.unplug?.();
  }
}
