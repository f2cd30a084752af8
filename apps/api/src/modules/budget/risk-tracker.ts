import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  dayStart,
  isoDay,
  RISK_ALERT_LEVELS,
  riskAlertLevel,
  scoreAction,
  type ToolCallInfo,
  type ToolCallObserver,
  type ToolContext,
  toolSecurityProfile,
} from '@app/domain';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { BudgetAlertsRepository } from './budget-alerts.repository';
import { BudgetSettings } from './budget-settings';
import { RiskRecordsRepository } from './risk-records.repository';

/** Risk taken in an interval: the total, per agent, per action type and per UTC day (ascending). */
export interface RiskTotals {
  readonly totalRiskUnits: number;
  readonly byAgent: Readonly<Record<string, number>>;
  readonly byActionType: Readonly<Record<string, number>>;
  readonly daily: readonly { day: Date; riskUnits: number }[];
}

/**
 * The risk budget's tracker. An observer of the engine's tool invoker, it sees only the tool calls
 * the security checks let through, while they run: it scores each by its action type (the security
 * module's risk-level table), keeps a risk record, and raises the daily limits' alerts once per
 * upward crossing. It never refuses a call; the limits refuse at task start (6002).
 */
@Injectable()
export class RiskTracker implements ToolCallObserver {
  readonly name = 'budget.risk';
  private readonly log: Logger;

  constructor(
    private readonly records: RiskRecordsRepository,
    private readonly settings: BudgetSettings,
    private readonly levels: BudgetAlertsRepository,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('budget.risk');
  }

  async observe(call: ToolCallInfo, ctx: ToolContext): Promise<void> {
    try {
      await this.take(call.tool, ctx.agentId, ctx.taskId, new Date(), call.profile?.action);
    } catch (error) {
      // Bookkeeping: a failure is logged, and the call it records goes on.
      this.log.error({ err: error, tool: call.tool }, 'budget.risk.record_failed');
    }
  }

  /** Records the risk of one tool call and checks the daily limits' alerts. */
  async take(tool: string, agentId: string, taskId: string, now: Date, action?: string): Promise<void> {
    const score = scoreAction(action ?? toolSecurityProfile(tool).action);
    await this.records.insert({
      id: randomUUID(),
      agentId,
      taskId: taskId.slice(0, 64),
      toolName: tool.slice(0, 64),
      actionType: score.actionType.slice(0, 128),
      riskLevel: score.level,
      riskUnits: score.riskUnits,
      createdAt: now,
    });
    this.log.debug(
      { agent_id: agentId, task_id: taskId, action_type: score.actionType, risk_units: score.riskUnits },
      'budget.risk.recorded',
    );
    const risk = this.settings.config().riskBudget;
    if (!risk.enabled) {
      return;
    }
    const taken = await this.records.taken(agentId, taskId, dayStart(now));
    const day = isoDay(now);
    await this.alert('agent_daily', agentId, taken.agentToday, risk.perAgentDailyRiskLimit, day, now);
    await this.alert('total_daily', null, taken.totalToday, risk.totalDailyRiskLimit, day, now);
  }

  /** Risk taken in [from, to), for the risk-trends report. */
  async summary(from: Date, to: Date): Promise<RiskTotals> {
    const groups = await this.records.groups(from, to);
    const byAgent: Record<string, number> = {};
    const byActionType: Record<string, number> = {};
    const daily = new Map<string, number>();
    let total = 0;
    for (const group of groups) {
      total += group.riskUnits;
      byAgent[group.agentId] = (byAgent[group.agentId] ?? 0) + group.riskUnits;
      byActionType[group.actionType] = (byActionType[group.actionType] ?? 0) + group.riskUnits;
      daily.set(group.day, (daily.get(group.day) ?? 0) + group.riskUnits);
    }
    return {
      totalRiskUnits: total,
      byAgent,
      byActionType,
      daily: [...daily]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([day, riskUnits]) => ({ day: new Date(`${day}T00:00:00.000Z`), riskUnits })),
    };
  }

  private async alert(
    scope: 'agent_daily' | 'total_daily',
    agentId: string | null,
    used: number,
    limit: number,
    day: string,
    now: Date,
  ): Promise<void> {
    const alerts = this.settings.config().riskBudget.alerts;
    const level = riskAlertLevel(used, limit, alerts);
    const key = scope === 'agent_daily' ? `risk:agent:${agentId}:${day}` : `risk:total:${day}`;
    const previous = await this.levels.raise(key, RISK_ALERT_LEVELS.indexOf(level), now);
    if (previous === null) {
      return;
    }
    const usedPercent = limit > 0 ? (used / limit) * 100 : 0;
    const previousLevel = RISK_ALERT_LEVELS[previous];
    this.log.warn(
      { level, previous_level: previousLevel, scope, agent_id: agentId, risk_units: used, limit },
      'budget.risk.alert.raised',
    );
    await announce(this.bus, this.log, {
      channel: Channel.Budget,
      event_type: 'risk.alert.raised',
      payload: {
        level,
        previous_level: previousLevel,
        scope,
        agent_id: agentId,
        risk_units: used,
        limit,
        used_percent: usedPercent,
        day,
      },
    });
  }
}
