import { Module, type OnApplicationBootstrap, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { EngineModule, RunPreflight, RunSpend, ToolInvoker } from '../engine';
import { ProvidersModule } from '../providers';
import { SettingsModule } from '../settings';
import { AgentBudgetLimits } from './agent-budget-limits';
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
import { RiskEviction } from './risk-eviction';
import { RiskRecordsRepository } from './risk-records.repository';
import { RiskTracker } from './risk-tracker';
import { SpendHistory } from './spend-history';
import { SpendReservationsRepository } from './spend-reservations.repository';

/**
 * Budget: the writer of cost records, their rollups and the calls' reservations, plugged into the
 * engine as its spend control and pre-flight steps; alerts, the exhaustion hook, spend over time for
 * other modules (SpendHistory) and the rule agents' monthly limits keep (AgentBudgetLimits). Keeps
 * the risk records of tool calls (RiskTracker, an observer of the engine's tool invoker) for the
 * risk budget and the risk reports.
 */
@Module({
  controllers: [BudgetController],
  imports: [AgentsModule, EngineModule, ProvidersModule, SettingsModule.forFeature(BUDGET_SETTINGS)],
  providers: [
    AgentBudgetLimits,
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
    RiskEviction,
    RiskRecordsRepository,
    RiskTracker,
    SpendHistory,
    SpendReservationsRepository,
  ],
  exports: [AgentBudgetLimits, BudgetExhaustion, RiskTracker, SpendHistory],
})
export class BudgetModule implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  private readonly unplug: Array<() => void> = [];

  constructor(
    private readonly spend: RunSpend,
    private readonly ledger: CostLedger,
    private readonly preflight: RunPreflight,
    private readonly checks: BudgetPreflight,
    private readonly invoker: ToolInvoker,
    private readonly risk: RiskTracker,
  ) {}

  onModuleInit(): void {
    this.unplug.push(this.spend.use(this.ledger));
    for (const check of this.checks.checks()) {
      this.unplug.push(this.preflight.register(check));
    }
  }

  // The risk tracker observes the tool calls the security checks let through, while they run.
  onApplicationBootstrap(): void {
    this.invoker.registerObserver(this.risk);
  }

  onModuleDestroy(): void {
    this.unplug.splice(0).forEach((off) => off());
  }
}
