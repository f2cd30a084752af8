import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { EngineModule, RunPreflight, RunSpend } from '../engine';
import { ProvidersModule } from '../providers';
import { SettingsModule } from '../settings';
import { BudgetAlerts } from './budget-alerts';
import { BudgetAlertsRepository } from './budget-alerts.repository';
import { BudgetExhaustion } from './budget-exhaustion';
import { BudgetPreflight } from './budget-preflight';
import { BudgetSettings } from './budget-settings';
import { BudgetController } from './budget.controller';
import { BudgetService } from './budget.service';
import { BUDGET_SETTINGS } from './budget.settings';
import { CostLedger } from './cost-ledger';
import { CostLedgerRepository } from './cost-ledger.repository';
import { CostRecordsRepository } from './cost-records.repository';
import { CostRollupsRepository } from './cost-rollups.repository';
import { ReservationRecovery } from './reservation-recovery';
import { SpendHistory } from './spend-history';
import { SpendReservationsRepository } from './spend-reservations.repository';

/**
 * Budget: the writer of cost records, their rollups and the calls' reservations, plugged into the
 * engine as its spend control and pre-flight steps; alerts, the exhaustion hook, and spend over
 * time for other modules (SpendHistory).
 */
@Module({
  controllers: [BudgetController],
  imports: [AgentsModule, EngineModule, ProvidersModule, SettingsModule.forFeature(BUDGET_SETTINGS)],
  providers: [
    BudgetAlerts,
    BudgetAlertsRepository,
    BudgetExhaustion,
    BudgetPreflight,
    BudgetService,
    BudgetSettings,
    CostLedger,
    CostLedgerRepository,
    CostRecordsRepository,
    CostRollupsRepository,
    ReservationRecovery,
    SpendHistory,
    SpendReservationsRepository,
  ],
  exports: [BudgetExhaustion, SpendHistory],
})
export class BudgetModule implements OnModuleInit, OnModuleDestroy {
  private readonly unplug: Array<() => void> = [];

  constructor(
    private readonly spend: RunSpend,
    private readonly ledger: CostLedger,
    private readonly preflight: RunPreflight,
    private readonly checks: BudgetPreflight,
  ) {}

  onModuleInit(): void {
    this.unplug.push(this.spend.use(this.ledger));
    for (const check of this.checks.checks()) {
      this.unplug.push(this.preflight.register(check));
    }
  }

  onModuleDestroy(): void {
    this.unplug.splice(0).forEach((off) => off());
  }
}
