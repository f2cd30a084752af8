import { Injectable } from '@nestjs/common';

import {
  alertLevelAt,
  billingPeriod,
  type BudgetConfig,
  dayStart,
  isoDay,
  Page,
  type PageRequest,
  usedPercent,
} from '@app/domain';

import { AgentRoster } from '../agents';
import { BudgetSettings } from './budget-settings';
import { CostRecordsRepository } from './cost-records.repository';
import { CostRollupsRepository, type RollupQuery, type RollupTotals } from './cost-rollups.repository';
import type { BudgetConfigDto } from './dto/budget-config.dto';
import type { AgentSpendingDto, CostRecordDto, DailySummaryDto, PeriodSummaryDto } from './dto/cost-record.dto';
import type { SpendingSummaryDto } from './dto/spending-summary.dto';

const DAY_MS = 86_400_000;

/** The budget's read use cases: its configuration, the spending summary, records and their summaries. */
@Injectable()
export class BudgetService {
  constructor(
    private readonly settings: BudgetSettings,
    private readonly rollups: CostRollupsRepository,
    private readonly rawRecords: CostRecordsRepository,
    private readonly roster: AgentRoster,
  ) {}

  config(): BudgetConfigDto {
    return toConfigDto(this.settings.config());
  }

  /** A page of records, newest first, with summaries over every matching record (from the rollups). */
  async records(filter: { agentId?: string; taskId?: string }, page: PageRequest): Promise<Page<CostRecordDto>> {
    const currency = this.settings.config().currency;
    const query: RollupQuery =
      filter.taskId !== undefined
        ? { grain: 'task', taskId: filter.taskId, ...(filter.agentId !== undefined ? { agentId: filter.agentId } : {}) }
        : { grain: 'day', ...(filter.agentId !== undefined ? { agentId: filter.agentId } : {}) };
    const [days, rows] = await Promise.all([
      this.rollups.buckets(query),
      this.rawRecords.page(filter, page.offset, page.limit),
    ]);
    const totals = days.reduce(add, zero());
    const daily: DailySummaryDto[] = days.map((d) => ({ date: isoDay(d.bucket), ...summaryOf(d), currency }));
    const period: PeriodSummaryDto = {
      avg_cost_usd: totals.records > 0 ? totals.costUsd / totals.records : 0,
      ...summaryOf(totals),
      currency,
    };
    const items = rows.map((r): CostRecordDto => ({
      agent_id: r.agentId,
      task_id: r.taskId,
      provider: r.provider,
      model: r.model,
      input_tokens: r.inputTokens,
      output_tokens: r.outputTokens,
      total_tokens: r.inputTokens + r.outputTokens,
      cost_usd: r.costUsd,
      timestamp: r.timestamp,
      call_category: r.callCategory,
    }));
    return new Page(items, totals.records, page.offset, page.limit, [], {
      daily_summary: daily,
      period_summary: period,
      currency,
    });
  }

  /** Everything an agent has spent. */
  async agent(agentId: string): Promise<AgentSpendingDto> {
    const totals = await this.rollups.totals({ grain: 'day', agentId });
    return { agent_id: agentId, total_cost_usd: totals.costUsd, currency: this.settings.config().currency };
  }

  /** The billing period's spending by agent and department, the alert level and a straight-line forecast. */
  async summary(now = new Date()): Promise<SpendingSummaryDto> {
    const config = this.settings.config();
    const period = billingPeriod(now, config.resetDay);
    const window = { grain: 'day' as const, from: period.start, to: period.end };
    const [byAgent, agents] = await Promise.all([this.rollups.costByAgent(window), this.roster.all()]);
    const totals = [...byAgent.values()].reduce(add, zero());
    const names = new Map(agents.map((a) => [a.id, a]));
    const departments = new Map<string, RollupTotals>();
    for (const [agentId, spent] of byAgent) {
      const department = names.get(agentId)?.department ?? 'unassigned';
      departments.set(department, add(departments.get(department) ?? zero(), spent));
    }
    const percent = usedPercent(totals.costUsd, config.totalMonthly);
    const elapsedDays = Math.max(1, Math.ceil((dayStart(now).getTime() + DAY_MS - period.start.getTime()) / DAY_MS));
    const periodDays = Math.round((period.end.getTime() - period.start.getTime()) / DAY_MS);
    const avg = totals.costUsd / elapsedDays;
    const remaining = Math.max(0, config.totalMonthly - totals.costUsd);
    return {
      period: { start: period.start.toISOString(), end: period.end.toISOString(), totals: summaryOf(totals) },
      by_agent: [...byAgent]
        .map(([agentId, spent]) => ({
          agent_id: agentId,
          agent_name: names.get(agentId)?.name ?? null,
          total_cost_usd: spent.costUsd,
          record_count: spent.records,
        }))
        .sort((a, b) => b.total_cost_usd - a.total_cost_usd || a.agent_id.localeCompare(b.agent_id)),
      by_department: [...departments]
        .map(([department, spent]) => ({ department, total_cost_usd: spent.costUsd, record_count: spent.records }))
        .sort((a, b) => b.total_cost_usd - a.total_cost_usd || a.department.localeCompare(b.department)),
      budget_total_monthly: config.totalMonthly,
      budget_used_percent: percent,
      alert_level: config.totalMonthly > 0 ? alertLevelAt(percent, config.alerts) : 'normal',
      currency: config.currency,
      forecast: {
        avg_daily_spend_usd: avg,
        projected_period_total_usd: avg * periodDays,
        days_until_exhausted: config.totalMonthly > 0 && avg > 0 ? Math.ceil(remaining / avg) : null,
      },
    };
  }
}

function zero(): RollupTotals {
  return { costUsd: 0, inputTokens: 0, outputTokens: 0, records: 0 };
}

function add(a: RollupTotals, b: RollupTotals): RollupTotals {
  return {
    costUsd: a.costUsd + b.costUsd,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    records: a.records + b.records,
  };
}

function summaryOf(t: RollupTotals) {
  return {
    total_cost_usd: t.costUsd,
    total_input_tokens: t.inputTokens,
    total_output_tokens: t.outputTokens,
    record_count: t.records,
  };
}

function toConfigDto(c: BudgetConfig): BudgetConfigDto {
  return {
    total_monthly: c.totalMonthly,
    alerts: { warn_at: c.alerts.warnAt, critical_at: c.alerts.criticalAt, hard_stop_at: c.alerts.hardStopAt },
    per_task_limit: c.perTaskLimit,
    per_agent_daily_limit: c.perAgentDailyLimit,
    auto_downgrade: {
      enabled: c.autoDowngrade.enabled,
      threshold: c.autoDowngrade.threshold,
      downgrade_map: c.autoDowngrade.downgradeMap.map(([from, to]) => [from, to]),
      boundary: c.autoDowngrade.boundary,
    },
    reset_day: c.resetDay,
    currency: c.currency,
    risk_budget: {
      enabled: c.riskBudget.enabled,
      per_task_risk_limit: c.riskBudget.perTaskRiskLimit,
      per_agent_daily_risk_limit: c.riskBudget.perAgentDailyRiskLimit,
      total_daily_risk_limit: c.riskBudget.totalDailyRiskLimit,
      alerts: { warn_at: c.riskBudget.alerts.warnAt, critical_at: c.riskBudget.alerts.criticalAt },
    },
  };
}
