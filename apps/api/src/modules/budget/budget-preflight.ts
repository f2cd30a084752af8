import { Injectable } from '@nestjs/common';

import {
  billingPeriod,
  dayStart,
  modelDowngradeTarget,
  judgeRiskStart,
  judgeRunStart,
  type PreflightCheck,
  usedPercent,
} from '@app/domain';

import { ModelRouter } from '../providers';
import { BudgetSettings } from './budget-settings';
import { departmentCap, shareDepartment } from './department-budget';
import { RiskRecordsRepository } from './risk-records.repository';
import { SpendReservationsRepository } from './spend-reservations.repository';

/**
 * The budget's steps of the run pre-flight (engine.md §10): at task start the monthly hard stop
 * and the department's share of it (6000), the agent's daily limit (6001) and the risk budget
 * (6002), then the auto-downgrade of the model alias, which
 * happens only here, at the task boundary, never mid-run.
 */
@Injectable()
export class BudgetPreflight {
  constructor(
    private readonly settings: BudgetSettings,
    private readonly reservations: SpendReservationsRepository,
    private readonly router: ModelRouter,
    private readonly risk: RiskRecordsRepository,
  ) {}

  checks(): PreflightCheck[] {
    return [this.limits(), this.riskBudget(), this.downgrade()];
  }

  private riskBudget(): PreflightCheck {
    return {
      name: 'budget_risk',
      order: 250,
      check: async ({ task, agent }) => {
        const risk = this.settings.config().riskBudget;
        if (!risk.enabled) {
          return { ok: true };
        }
        const taken = await this.risk.taken(agent.id, task.id, dayStart(new Date()));
        const refusal = judgeRiskStart(risk, taken);
        return refusal
          ? { ok: false, code: refusal.code, reason: `[${refusal.code}] ${refusal.reason}` }
          : { ok: true };
      },
    };
  }

  /** The spend state now; with the agent's `department`, its share too (when one can apply). */
  private async periodSpend(agentId: string, taskId: string, department?: string) {
    const config = this.settings.config();
    const now = new Date();
    const period = billingPeriod(now, config.resetDay);
    const spent = await this.reservations.spendState({
      periodStart: period.start,
      periodEnd: period.end,
      today: dayStart(now),
      agentId,
      taskId,
      department: department === undefined ? null : shareDepartment(config, department),
    });
    return { config, spent };
  }

  private limits(): PreflightCheck {
    return {
      name: 'budget_limits',
      order: 200,
      check: async ({ task, agent }) => {
        const { config, spent } = await this.periodSpend(agent.id, task.id, agent.department);
        const refusal = judgeRunStart(config, spent, departmentCap(config, agent.department, spent));
        return refusal
          ? { ok: false, code: refusal.code, reason: `[${refusal.code}] ${refusal.reason}`, spendLimit: refusal.limit }
          : { ok: true };
      },
    };
  }

  private downgrade(): PreflightCheck {
    return {
      name: 'budget_downgrade',
      order: 300,
      check: async ({ task, agent, provider, model }) => {
        const config = this.settings.config();
        if (!config.autoDowngrade.enabled || config.autoDowngrade.downgradeMap.length === 0) {
          return { ok: true };
        }
        const { spent } = await this.periodSpend(agent.id, task.id);
        const percent = usedPercent(spent.period, config.totalMonthly);
        const models = this.router.models();
        const current = models.find((m) => m.provider === provider && (m.id === model || m.alias === model));
        const target = modelDowngradeTarget(config, percent, current?.alias ?? model);
        if (target === null) {
          return { ok: true };
        }
        const cheaper =
          models.find((m) => m.provider === provider && (m.alias === target || m.id === target)) ??
          models.find((m) => m.alias === target || m.id === target);
        if (!cheaper) {
          return { ok: true, note: `no model for downgrade alias ${target}; kept ${model}` };
        }
        return {
          ok: true,
          provider: cheaper.provider,
          model: cheaper.id,
          note: `budget ${percent.toFixed(1)}% used: downgraded ${current?.alias ?? model} to ${target}`,
        };
      },
    };
  }
}
