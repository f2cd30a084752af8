import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  billingPeriod,
  Channel,
  type CostEntry,
  dayStart,
  isoDay,
  judgeCall,
  type SpendControl,
  type SpendRequest,
  type SpendVerdict,
  taskLimitOf,
} from '@app/domain';
import {
  announce,
  APP_CONFIG,
  type AppConfig,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  ReplicaIdentity,
} from '@app/platform';

import type { BudgetReservationEntity } from '@app/persistence';

import { BudgetAlerts, type PeriodSpend } from './budget-alerts';
import { BudgetExhaustion } from './budget-exhaustion';
import { BudgetSettings } from './budget-settings';
import { CostLedgerRepository } from './cost-ledger.repository';
import { departmentCap, shareDepartment } from './department-budget';
import { SpendReservationsRepository } from './spend-reservations.repository';

/** Reservations settled per read when a dead owner's are. */
const SETTLE_BATCH = 100;
/** Beyond its call timeout, how long a reservation may wait for its record before recovery takes it. */
const SETTLE_GRACE_MS = 60_000;

/**
 * The engine's spend control. Before a model call its estimated cost is reserved against the
 * task's cap, the monthly hard stop, the department's share and the agent's daily limit (or
 * refused, 6000/6001); the call's
 * cost record is written with its rollups, settling the reservation, in one transaction, logged
 * (`budget.record.added`) and announced; then the alert levels are checked.
 */
@Injectable()
export class CostLedger implements SpendControl {
  /** This replica, as the owner of its reservations. */
  readonly owner: string;
  private readonly log: Logger;
  private readonly reservationTtlMs: number;
  /** Reservations whose COMMIT is still in flight, by id (Postgres). */
  private readonly commits = new Map<string, Promise<void>>();

  constructor(
    private readonly ledger: CostLedgerRepository,
    private readonly reservations: SpendReservationsRepository,
    private readonly settings: BudgetSettings,
    private readonly alerts: BudgetAlerts,
    private readonly exhaustion: BudgetExhaustion,
    private readonly bus: EventBus,
    identity: ReplicaIdentity,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.owner = identity.owner;
    this.log = logging.forName('budget.ledger');
    this.reservationTtlMs = config.engine.callTimeoutSeconds * 1000 + SETTLE_GRACE_MS;
  }

  async reserve(request: SpendRequest): Promise<SpendVerdict> {
    const config = this.settings.config();
    const now = new Date();
    const period = billingPeriod(now, config.resetDay);
    const estimate = Math.max(0, request.estimatedCost);
    const taskLimit = taskLimitOf(request.task.budgetLimit);
    const row = {
      id: randomUUID(),
      agentId: request.agent.id,
      taskId: request.task.id,
      provider: request.provider.slice(0, 100),
      model: request.model.slice(0, 200),
      estimateUsd: estimate,
      state: 'open',
      owner: this.owner,
      createdAt: now,
      expiresAt: new Date(now.getTime() + this.reservationTtlMs),
      costRecordId: null,
    };
    const department = request.agent.department;
    const { refusal, committed } = await this.reservations.reserve(
      {
        row,
        periodStart: period.start,
        periodEnd: period.end,
        today: dayStart(now),
        department: shareDepartment(config, department),
      },
      (spent) => judgeCall(config, spent, estimate, taskLimit, departmentCap(config, department, spent)),
    );
    if (refusal === null) {
      this.trackCommit(row.id, committed);
      return { ok: true, reservationId: row.id };
    }
    this.log.warn({ limit: refusal.limit, code: refusal.code, reason: refusal.reason }, 'budget.call.refused');
    if (refusal.limit === 'monthly' || refusal.limit === 'agent_daily') {
      const scope = refusal.limit === 'monthly' ? isoDay(period.start) : `${request.agent.id}:${isoDay(now)}`;
      await this.exhaustion.exhausted(
        { limit: refusal.limit, agentId: request.agent.id, reason: refusal.reason, at: now },
        scope,
      );
    }
    return { ok: false, reason: refusal.reason, code: refusal.code, limit: refusal.limit };
  }

  async check(request: SpendRequest): Promise<SpendVerdict> {
    const config = this.settings.config();
    const now = new Date();
    const period = billingPeriod(now, config.resetDay);
    const estimate = Math.max(0, request.estimatedCost);
    const department = request.agent.department;
    const spent = await this.reservations.spendState({
      agentId: request.agent.id,
      taskId: request.task.id,
      periodStart: period.start,
      periodEnd: period.end,
      today: dayStart(now),
      department: shareDepartment(config, department),
    });
    const refusal = judgeCall(
      config,
      spent,
      estimate,
      taskLimitOf(request.task.budgetLimit),
      departmentCap(config, department, spent),
    );
    return refusal === null
      ? { ok: true, reservationId: null }
      : { ok: false, reason: refusal.reason, code: refusal.code, limit: refusal.limit };
  }

  async release(reservationId: string): Promise<void> {
    await this.committed(reservationId);
    await this.reservations.release(reservationId);
  }

  /**
   * The open reservations of a run owner that recovery found dead, settled at their estimates (see
   * {@link settleReservation}); a batch at a time until none is left.
   */
  async settleAbandoned(owner: string): Promise<number> {
    let settled = 0;
    for (;;) {
      const batch = await this.reservations.openOf(owner, SETTLE_BATCH);
      for (const reservation of batch) {
        settled += (await this.settleReservation(reservation)) ? 1 : 0;
      }
      if (batch.length < SETTLE_BATCH) {
        return settled;
      }
    }
  }

  /**
   * Charges an abandoned reservation: a cost record at its estimate, the reservation kept marked
   * `recovered` with that record's id, in one transaction, once (a reservation settled meanwhile, by
   * its call's own record or by another replica, is left alone). A reservation is open only while no
   * usage of its call is recorded (the call's record deletes it in the same statement), so the
   * estimate is the best knowledge there is: the provider has most likely billed the call.
   */
  async settleReservation(reservation: BudgetReservationEntity): Promise<boolean> {
    const entry: CostEntry = {
      id: randomUUID(),
      agentId: reservation.agentId,
      taskId: reservation.taskId,
      provider: reservation.provider,
      model: reservation.model,
      inputTokens: 0,
      outputTokens: 0,
      costUsd: reservation.estimateUsd,
      callCategory: 'productive',
      timestamp: reservation.createdAt,
    };
    const marked = await this.ledger.transaction(async (manager) => {
      if (!(await this.reservations.markRecovered(manager, reservation.id, entry.id))) {
        return false;
      }
      await this.ledger.record(entry, null, manager);
      return true;
    });
    if (marked) {
      this.log.warn(
        { reservation_id: reservation.id, owner: reservation.owner, cost: entry.costUsd, task_id: entry.taskId },
        'budget.reservation.recovered',
      );
      await this.recorded(entry);
    }
    return marked;
  }

  async record(entry: CostEntry, reservationId: string | null): Promise<void> {
    await this.committed(reservationId);
    const config = this.settings.config();
    if (config.totalMonthly <= 0) {
      await this.ledger.record(entry, reservationId);
      await this.recorded(entry);
      return;
    }
    // The alert check needs the period's spend: the record's own statement reads it.
    const period = billingPeriod(entry.timestamp, config.resetDay);
    const spent = await this.ledger.recordInPeriod(entry, reservationId, period);
    await this.recorded(entry, { period, spent });
  }

  /**
   * Keeps a reservation's commit, still in flight when the call it guards starts, until it is done:
   * the record that settles the reservation, or its release, must not run before it, or it would
   * find no row to delete. A failed commit lost the reservation: logged, and nothing else to undo.
   */
  private trackCommit(reservationId: string, committed: Promise<void>): void {
    const done = committed.then(
      () => undefined,
      (error: unknown) =>
        this.log.error({ err: error, reservation_id: reservationId }, 'budget.reservation.commit_failed'),
    );
    this.commits.set(reservationId, done);
    void done.finally(() => this.commits.delete(reservationId));
  }

  /** Resolves once the reservation's commit is done, or at once when none is in flight. */
  private async committed(reservationId: string | null): Promise<void> {
    const pending = reservationId === null ? undefined : this.commits.get(reservationId);
    if (pending) {
      await pending;
    }
  }

  /**
   * After a record is in: the log line, the event and the alert check (failures only logged), with
   * the period's spend when the record's write read it already.
   */
  async recorded(entry: CostEntry, periodSpend?: PeriodSpend): Promise<void> {
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
    await this.alerts.check(new Date(), entry.agentId, periodSpend).catch((error: unknown) => {
      this.log.error({ err: error }, 'budget.alert.check_failed');
    });
  }
}
