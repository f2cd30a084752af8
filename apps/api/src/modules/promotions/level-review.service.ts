import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  ConflictError,
  cooldownUntil,
  ErrorCode,
  evaluateLevel,
  ForbiddenError,
  HumanRole,
  type LevelPolicy,
  type LevelVerdict,
  levelChangePath,
  type ModelTier,
  NotFoundError,
  pickModelForTier,
  type SeniorityLevel,
  tierForSeniority,
} from '@app/domain';
import type { AgentEntity, LevelChangeEntity } from '@app/persistence';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster, type LevelChange } from '../agents';
import { ApprovalsService } from '../approvals';
import { AuditTrail } from '../audit';
import { ModelCatalog } from '../providers';
import { SettingsSnapshot } from '../settings';
import type { LevelEvaluationDto } from './dto/level-evaluation.dto';
import { LevelChangesRepository } from './level-changes.repository';

/** Who asked: a person (on demand: refusals are errors) or the schedule (`system`: refusals are skips). */
export interface EvaluationRequest {
  requestedBy: string;
  onDemand: boolean;
}

/** A decided `org:promote` item as the approvals channel reports it. */
export interface DecidedItem {
  id: string;
  status: string;
  decidedBy: string | null;
}

/**
 * Promotion and demotion (engine.md §13): evaluates an agent from its performance summary, applies
 * a move one level at a time, or files it as an `org:promote` item and applies it when a person
 * approves. Of two evaluations at once (two replicas, the schedule and a person), one moves the
 * agent: a move first claims the agent's single pending slot, and the level is written with a
 * compare-and-set on the agent's version.
 */
@Injectable()
export class LevelReview {
  private readonly log: Logger;

  constructor(
    private readonly changes: LevelChangesRepository,
    private readonly roster: AgentRoster,
    private readonly approvals: ApprovalsService,
    private readonly audit: AuditTrail,
    private readonly catalog: ModelCatalog,
    private readonly settings: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.promotions');
  }

  /** The rules' settings now (hot: read on every evaluation). */
  policy(): LevelPolicy {
    const v = <T extends string | number | boolean>(key: string) => this.settings.value<T>('company', key);
    return {
      enabled: v<boolean>('promotion_enabled'),
      cooldownHours: v<number>('promotion_cooldown_hours'),
      minCriteriaMet: v<number>('promotion_min_criteria_met'),
      promotion: {
        quality: v<number>('promotion_quality_threshold'),
        successRate: v<number>('promotion_success_rate_threshold'),
        tasks: v<number>('promotion_tasks_threshold'),
      },
      demotion: {
        quality: v<number>('demotion_quality_threshold'),
        successRate: v<number>('demotion_success_rate_threshold'),
        tasks: v<number>('demotion_tasks_threshold'),
      },
      humanApprovalFromLevel: v<string>('promotion_human_approval_from_level') as SeniorityLevel,
      autoDemoteCostSaving: v<boolean>('auto_demote_cost_saving'),
      humanDemoteAuthority: v<boolean>('human_demote_authority'),
      modelFollowsSeniority: v<boolean>('model_follows_seniority'),
    };
  }

  /**
   * `POST /agents/{agent_name}/evaluate-level`: the CEO, or a manager of the agent's department.
   * @throws NotFoundError 3013; ForbiddenError 1999; ConflictError 4070 (cooldown), 4071 (not active), 4072 (off).
   */
  async evaluateOnDemand(actor: ActorContext, name: string): Promise<LevelEvaluationDto> {
    const agent = await this.roster.findByRef(name);
    if (!agent) {
      throw new NotFoundError(`Agent "${name}" not found`, ErrorCode.AgentNotFound);
    }
    if (actor.role === HumanRole.Manager && actor.department !== agent.department) {
      throw new ForbiddenError(
        `Managers may only evaluate agents of their own department; ${agent.name} is not in it`,
        ErrorCode.AgentOutsideManagedDepartment,
      );
    }
    const result = await this.evaluate(agent, { requestedBy: actor.username, onDemand: true }, new Date());
    if (result === null) {
      throw new ConflictError(`${agent.name} changed while it was evaluated; try again`, ErrorCode.VersionConflict);
    }
    return result;
  }

  /**
   * Evaluates one agent at `now` and acts on the verdict. Answers null when the schedule skips it
   * (switched off, not active, cooling down) or when another write to the agent came first.
   */
  async evaluate(agent: AgentEntity, request: EvaluationRequest, now: Date): Promise<LevelEvaluationDto | null> {
    const policy = this.policy();
    if (!policy.enabled) {
      return this.refuse(request, 'Promotion and demotion are switched off', ErrorCode.PromotionsDisabled);
    }
    if (agent.status !== 'active') {
      return this.refuse(
        request,
        `${agent.name} is ${agent.status}: only active agents are evaluated`,
        ErrorCode.AgentNotEvaluable,
      );
    }
    let pending = await this.changes.pendingOf(agent.id);
    if (pending !== null) {
      await this.reconcile(pending);
      pending = await this.changes.pendingOf(agent.id);
      agent = (await this.roster.findByRef(agent.id)) ?? agent;
    }
    if (pending === null) {
      const until = cooldownUntil(await this.changes.lastAppliedAt(agent.id), policy);
      if (until !== null && until > now) {
        return this.refuse(
          request,
          `${agent.name}'s level changed less than ${policy.cooldownHours} h ago; next evaluation from ${until.toISOString()}`,
          ErrorCode.LevelChangeCooldown,
        );
      }
    }
    const summary = await this.roster.performance(agent);
    const verdict = evaluateLevel(agent.level as SeniorityLevel, summary, policy);
    const shown = (
      decision: LevelEvaluationDto['decision'],
      reason: string,
      approvalId: string | null,
      toLevel: string | null = verdict.to_level,
    ) => toEvaluation(agent, verdict, policy, { decision, reason, approvalId, toLevel }, now);
    if (pending !== null) {
      return shown(
        'pending_approval',
        `a ${pending.direction} to ${pending.newLevel} waits for approval ${pending.approvalId ?? '?'}`,
        pending.approvalId,
        pending.newLevel,
      );
    }
    if (verdict.outcome === 'none' || verdict.to_level === null) {
      return shown('no_change', verdict.reason, null, null);
    }
    const path = levelChangePath(verdict.outcome, verdict.to_level, agent.modelTier as ModelTier, policy);
    const change = newChange(agent, verdict, request.requestedBy, path === 'human' ? randomUUID() : null, now);
    if (!(await this.changes.insert(change))) {
      // Another evaluation claimed the agent's move first: report what it filed.
      const other = await this.changes.pendingOf(agent.id);
      return shown(
        'pending_approval',
        'another evaluation is deciding a move',
        other?.approvalId ?? null,
        other?.newLevel ?? null,
      );
    }
    if (path === 'human') {
      await this.file(agent, change, verdict);
      return shown(
        'pending_approval',
        `${verdict.reason}; a person decides (approval ${change.approvalId})`,
        change.approvalId,
      );
    }
    const moved = await this.apply(agent, change, 'system', null, policy);
    if (moved === null) {
      await this.changes.settlePending(change.id, { status: 'dropped', decidedAt: new Date() });
      return null;
    }
    return shown(verdict.outcome === 'promote' ? 'promoted' : 'demoted', verdict.reason, null);
  }

  /**
   * A decided item: a person's approval of a pending move applies it (when the agent is still at
   * the level it was evaluated at and active); a rejection, an expiry or a decision by the timeout
   * policy drops it. Every replica hears the decision; the pending row's compare-and-set and the
   * agent's version let one act.
   */
  async decided(item: DecidedItem): Promise<void> {
    const change = await this.changes.findByApproval(item.id);
    if (change === null || change.status !== 'pending') {
      return;
    }
    const byPerson = item.decidedBy !== null && item.decidedBy !== 'system';
    const agent = await this.roster.findByRef(change.agentId);
    if (item.status === 'approved' && byPerson && agent !== null) {
      if (agent.level === change.newLevel) {
        // Applied before a crash let the row be settled.
        await this.changes.settlePending(change.id, {
          status: 'applied',
          appliedAt: new Date(),
          decidedBy: item.decidedBy,
        });
        return;
      }
      if (agent.level === change.oldLevel && agent.status === 'active') {
        await this.apply(agent, change, item.decidedBy ?? 'system', item.id, this.policy());
        return;
      }
    }
    const status = item.status === 'approved' && byPerson ? 'dropped' : 'rejected';
    if (await this.changes.settlePending(change.id, { status, decidedBy: item.decidedBy, decidedAt: new Date() })) {
      await this.audit.record({
        actor: item.decidedBy ?? 'system',
        action: 'agent.level_change_rejected',
        target: `agent:${change.agentName}`,
        outcome: 'denied',
        details: {
          agent_id: change.agentId,
          direction: change.direction,
          from: change.oldLevel,
          to: change.newLevel,
          approval_id: item.id,
          approval_status: item.status,
          why: status === 'dropped' ? 'the agent is no longer at the level it was evaluated at, or not active' : null,
        },
      });
      this.log.info({ agent_id: change.agentId, approval_id: item.id, status }, 'hr.level_change.settled');
    }
  }

  /** Settles a pending move a crash or a lost event left: from its item's decision, or by finishing an automatic move. */
  async reconcile(change: LevelChangeEntity): Promise<void> {
    if (change.approvalId !== null) {
      const item = await this.approvals.get(change.approvalId).catch(() => null);
      if (item === null) {
        await this.changes.settlePending(change.id, { status: 'dropped', decidedAt: new Date() });
      } else if (item.status !== 'pending') {
        await this.decided({ id: item.id, status: item.status, decidedBy: item.decided_by ?? null });
      }
      return;
    }
    const agent = await this.roster.findByRef(change.agentId);
    if (agent !== null && agent.level === change.newLevel) {
      await this.changes.settlePending(change.id, { status: 'applied', appliedAt: new Date(), decidedBy: 'system' });
    } else if (agent !== null && agent.level === change.oldLevel && agent.status === 'active') {
      await this.apply(agent, change, 'system', null, this.policy());
    } else {
      await this.changes.settlePending(change.id, { status: 'dropped', decidedAt: new Date() });
    }
  }

  /** Pending moves at startup: each is settled when its item was decided while no process listened. */
  async reconcileAll(): Promise<void> {
    for (const change of await this.changes.allPending(500)) {
      await this.reconcile(change).catch((error: unknown) => {
        this.log.warn({ err: error, level_change_id: change.id }, 'hr.level_change.reconcile_failed');
      });
    }
  }

  /** Writes the level (and model) with its career event, then settles the row; null when the agent changed first. */
  private async apply(
    agent: AgentEntity,
    change: LevelChangeEntity,
    decidedBy: string,
    approvalId: string | null,
    policy: LevelPolicy,
  ): Promise<AgentEntity | null> {
    const to = change.newLevel as SeniorityLevel;
    const model = policy.modelFollowsSeniority ? await this.modelFor(agent, to) : null;
    const promoted = change.direction === 'promotion';
    const modelText = model
      ? `; model ${agent.modelProvider}/${agent.modelId} → ${model.provider}/${model.modelId}`
      : '';
    const levelChange: LevelChange = {
      level: to,
      model,
      type: promoted ? 'promoted' : 'demoted',
      eventId: change.eventId,
      decidedBy,
      approvalId,
      details:
        `${promoted ? 'Promoted' : 'Demoted'} from ${change.oldLevel} to ${to}: ${change.reason}${modelText}`.slice(
          0,
          1024,
        ),
      metadata: {
        old_level: change.oldLevel,
        new_level: to,
        ...(approvalId ? { approval_id: approvalId } : {}),
        ...(model ? { model: `${model.provider}/${model.modelId}`.slice(0, 256) } : {}),
      },
    };
    const moved = await this.roster.changeLevelAtVersion(agent, levelChange);
    if (moved === null) {
      return null;
    }
    await this.changes.settlePending(change.id, {
      status: 'applied',
      appliedAt: new Date(),
      decidedBy,
      decidedAt: new Date(),
    });
    await this.audit.record({
      actor: decidedBy,
      action: promoted ? 'agent.promoted' : 'agent.demoted',
      target: `agent:${agent.name}`,
      outcome: 'success',
      details: {
        agent_id: agent.id,
        old_level: change.oldLevel,
        new_level: to,
        approval_id: approvalId,
        requested_by: change.requestedBy,
        reason: change.reason,
        model: model ? `${model.provider}/${model.modelId}` : null,
      },
    });
    return moved;
  }

  /** Files the `org:promote` item a person decides (the row already claims the agent's move). */
  private async file(agent: AgentEntity, change: LevelChangeEntity, verdict: LevelVerdict): Promise<void> {
    const promoted = change.direction === 'promotion';
    try {
      await this.approvals.fileRequest({
        id: change.approvalId ?? undefined,
        actionType: 'org:promote',
        title: `${promoted ? 'Promote' : 'Demote'} ${agent.name} from ${change.oldLevel} to ${change.newLevel}`,
        description: `${verdict.reason}. Approving applies the ${change.direction}; rejecting keeps ${agent.name} at ${change.oldLevel}.`,
        requestedBy: change.requestedBy,
        riskLevel: 'medium',
        department: agent.department,
        metadata: {
          kind: 'seniority',
          direction: change.direction,
          agent_id: agent.id,
          agent_name: agent.name.slice(0, 256),
          from: change.oldLevel,
          to: change.newLevel,
        },
      });
    } catch (error) {
      await this.changes.settlePending(change.id, { status: 'dropped', decidedAt: new Date() });
      throw error;
    }
    await this.audit.record({
      actor: change.requestedBy,
      action: 'agent.level_change_requested',
      target: `agent:${agent.name}`,
      outcome: 'success',
      details: {
        agent_id: agent.id,
        direction: change.direction,
        from: change.oldLevel,
        to: change.newLevel,
        approval_id: change.approvalId,
        reason: change.reason,
      },
    });
    this.log.info(
      { agent_id: agent.id, from: change.oldLevel, to: change.newLevel, approval_id: change.approvalId },
      'hr.level_change.approval_requested',
    );
  }

  /**
   * The model of the new level's tier (the router's seniority table), from the agent's provider when
   * it offers one; null when the tier does not change.
   */
  private async modelFor(
    agent: AgentEntity,
    level: SeniorityLevel,
  ): Promise<{ provider: string | null; modelId: string | null; tier: ModelTier } | null> {
    const tier = tierForSeniority(level);
    if (tier === agent.modelTier) {
      return null;
    }
    const models = await this.catalog.models();
    const pick =
      pickModelForTier(
        models.filter((m) => m.provider === agent.modelProvider),
        tier,
      ) ?? pickModelForTier(models, tier);
    return pick
      ? { provider: pick.provider, modelId: pick.id, tier }
      : { provider: agent.modelProvider, modelId: agent.modelId, tier };
  }

  /** On demand a refusal is a 409 with its code; the schedule skips the agent. */
  private refuse(request: EvaluationRequest, message: string, code: ErrorCode): null {
    if (request.onDemand) {
      throw new ConflictError(message, code);
    }
    return null;
  }
}

function newChange(
  agent: AgentEntity,
  verdict: LevelVerdict,
  requestedBy: string,
  approvalId: string | null,
  now: Date,
): LevelChangeEntity {
  return {
    id: randomUUID(),
    agentId: agent.id,
    agentName: agent.name,
    direction: verdict.outcome === 'promote' ? 'promotion' : 'demotion',
    oldLevel: agent.level,
    newLevel: verdict.to_level ?? agent.level,
    status: 'pending',
    pendingKey: agent.id,
    approvalId,
    reason: verdict.reason,
    requestedBy,
    decidedBy: null,
    eventId: randomUUID(),
    createdAt: now,
    appliedAt: null,
    decidedAt: null,
  };
}

function toEvaluation(
  agent: AgentEntity,
  verdict: LevelVerdict,
  policy: LevelPolicy,
  outcome: {
    decision: LevelEvaluationDto['decision'];
    reason: string;
    approvalId: string | null;
    toLevel: string | null;
  },
  now: Date,
): LevelEvaluationDto {
  return {
    agent_name: agent.name,
    level: verdict.from_level,
    decision: outcome.decision,
    to_level: outcome.toLevel,
    reason: outcome.reason,
    criteria: verdict.criteria.map((c) => ({ ...c })),
    promotion_criteria_met: verdict.promotion_criteria_met,
    demotion_criteria_met: verdict.demotion_criteria_met,
    min_criteria_met: policy.minCriteriaMet,
    approval_id: outcome.approvalId,
    evaluated_at: now.toISOString(),
  };
}
