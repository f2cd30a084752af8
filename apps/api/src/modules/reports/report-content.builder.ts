import { Injectable, Optional } from '@nestjs/common';

import { agentPerformance, type ReportSection, roundTo, taskCompletion, type TimeRange, isoDay } from '@app/domain';

import { BudgetStatus, Workforce } from '../analytics';
import { RunLedger } from '../run-ledger';
import type { ReportContentDto } from './dto/report.dto';
import type { RiskTrendsSectionDto, SpendingSectionDto } from './dto/report-sections.dto';
import { RiskSource } from './risk-source';

/** Builds the sections of a report over one period from the ledger, the roster, spend and risk. */
@Injectable()
export class ReportContentBuilder {
  constructor(
    private readonly budget: BudgetStatus,
    private readonly ledger: RunLedger,
    private readonly workforce: Workforce,
    @Optional() private readonly risk?: RiskSource,
  ) {}

  /** Whether a section's source is wired (risk comes from a module that may not be bound). */
  available(section: ReportSection): boolean {
    switch (section) {
      case 'risk_trends':
        return this.risk !== undefined;
      case 'spending':
      case 'performance':
      case 'task_completion':
        return true;
    }
  }

  /**
   * The content of `sections` over `range`. A section whose source is not wired (risk, until a risk
   * tracker is bound) is left out, and the report's `has_*` flags say so.
   */
  async build(sections: readonly ReportSection[], range: TimeRange): Promise<ReportContentDto> {
    const wired = sections.filter((section) => this.available(section));
    const content: ReportContentDto = {};
    if (wired.includes('performance') || wired.includes('task_completion')) {
      const [rows, roster] = await Promise.all([
        this.ledger.outcomesBetween(range.start, range.end),
        this.workforce.directory(),
      ]);
      const runs = rows.map((row) => ({
        agentId: row.agentId,
        success: row.isSuccess,
        durationSeconds: row.durationSeconds,
        costUsd: row.costUsd,
        qualityScore: row.qualityScore,
      }));
      if (wired.includes('performance')) {
        content.performance = { agents: agentPerformance(runs, roster) };
      }
      if (wired.includes('task_completion')) {
        content.task_completion = taskCompletion(runs, roster);
      }
    }
    if (wired.includes('spending')) {
      content.spending = await this.spending(range);
    }
    if (wired.includes('risk_trends')) {
      content.risk_trends = await this.riskTrends(range);
    }
    return content;
  }

  private async spending(range: TimeRange): Promise<SpendingSectionDto> {
    const spend = this.budget.spend();
    const length = range.end.getTime() - range.start.getTime();
    const previousStart = new Date(range.start.getTime() - length);
    const [total, previous, days] = await Promise.all([
      spend.total(range.start, range.end),
      spend.total(previousStart, range.start),
      spend.byDay(range.start, range.end),
    ]);
    return {
      total_cost_usd: roundTo(total.costUsd, 6),
      total_input_tokens: total.inputTokens,
      total_output_tokens: total.outputTokens,
      record_count: total.records,
      previous_period_cost_usd: roundTo(previous.costUsd, 6),
      change_percent:
        previous.costUsd > 0 ? roundTo(((total.costUsd - previous.costUsd) / previous.costUsd) * 100, 2) : null,
      daily: days.map((day) => ({
        date: isoDay(day.bucket),
        cost_usd: roundTo(day.costUsd, 6),
        record_count: day.records,
      })),
      currency: this.budget.terms().currency,
    };
  }

  private async riskTrends(range: TimeRange): Promise<RiskTrendsSectionDto> {
    const summary = await (this.risk as RiskSource).summary(range.start, range.end);
    return {
      total_risk_units: roundTo(summary.totalRiskUnits, 4),
      by_agent: { ...summary.byAgent },
      by_action_type: { ...summary.byActionType },
      daily: summary.daily.map((day) => ({ date: isoDay(day.day), risk_units: roundTo(day.riskUnits, 4) })),
    };
  }
}
