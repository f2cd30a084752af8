import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { planTrust, type ToolAccessLevel, type TrustDecision, type TrustRun, type TrustStrategy } from '@app/domain';
import type { AgentEntity, AgentTrustEntity, JsonObject } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { ApprovalsService } from '../approvals';
import { RunLedger } from '../run-ledger';
import { SettingsSnapshot } from '../settings';
import { toolPermissionsOf } from './agent-tool-access';
import { SecurityAudit } from './security-audit';
import { SecurityRepository } from './security.repository';

/** Runs an evaluation reads: the milestone strategy's 90-day re-verification window. */
const TRUST_WINDOW_DAYS = 90;
const TRUST_RUNS_CAP = 500;
const DAY_MS = 86_400_000;

/** How a decided approval item reaches the trust control. */
export interface DecidedApproval {
  id: string;
  status: string;
  decidedBy: string | null;
}

/**
 * Progressive trust: after each finished run the agent's tool access level is evaluated under the
 * configured strategy. Promotions and demotions change the agent's `tools.access_level`, are kept in
 * `agent_trust` and recorded as `trust_change` security records. A promotion into `elevated` always
 * becomes an approval item and is applied only when a person approves it.
 */
@Injectable()
export class TrustControl {
  private readonly log: Logger;

  constructor(
    private readonly agents: AgentRoster,
    private readonly approvals: ApprovalsService,
    private readonly ledger: RunLedger,
    private readonly settings: SettingsSnapshot,
    private readonly repository: SecurityRepository,
    private readonly audit: SecurityAudit,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security.trust');
  }

  strategy(): TrustStrategy {
    return this.settings.value<TrustStrategy>('security', 'trust_strategy');
  }

  /** The agent's trust row, or what it would start from. */
  async stateOf(agent: AgentEntity): Promise<AgentTrustEntity> {
    return (await this.repository.findTrust(agent.id)) ?? this.initial(agent, new Date());
  }

  /** Evaluates the agent under the strategy in force and applies what it decides. */
  async evaluate(agent: AgentEntity, now = new Date()): Promise<TrustDecision> {
    const strategy = this.strategy();
    if (strategy === 'disabled') {
      return { kind: 'keep', score: null, reason: 'trust disabled' };
    }
    const state = await this.stateOf(agent);
    if (state.pendingApprovalId !== null) {
      // A promotion waits for a person: nothing else moves until it is decided.
      return { kind: 'keep', score: state.score, reason: `waiting for approval ${state.pendingApprovalId}` };
    }
    const level = toolPermissionsOf(agent).accessLevel;
    const runs = await this.runsOf(agent.id, now);
    const since = state.lastChangedAt;
    const decision = planTrust(
      strategy,
      {
        level,
        runs,
        runsSinceChange: since === null ? runs : runs.filter((r) => r.completedAt > since),
        lastActiveAt: runs.reduce<Date | null>((a, r) => (a === null || r.completedAt > a ? r.completedAt : a), null),
        lastVerifiedAt: state.lastVerifiedAt,
        reverification: this.settings.value<boolean>('security', 'trust_reverification_enabled'),
      },
      now,
    );
    const next: AgentTrustEntity = { ...state, strategy, level, score: decision.score, evaluatedAt: now };
    switch (decision.kind) {
      case 'keep':
        await this.repository.saveTrust(next);
        break;
      case 'verified':
        await this.repository.saveTrust({ ...next, lastVerifiedAt: now });
        await this.record(agent, level, level, 'verified', decision.reason, 'system');
        break;
      case 'demote':
        await this.change(agent, next, decision.to, `demoted: ${decision.reason}`, 'system', now);
        break;
      case 'promote':
        if (decision.promotion.requiresHumanApproval) {
          await this.requestApproval(agent, next, decision.promotion.to, decision.promotion.reason);
        } else {
          await this.change(
            agent,
            next,
            decision.promotion.to,
            `promoted: ${decision.promotion.reason}`,
            'system',
            now,
          );
        }
        break;
    }
    return decision;
  }

  /**
   * A decided approval item: when it is a trust promotion's, a person's approval applies it and a
   * rejection (or an expiry, or a decision the timeout policy made) drops it. Only one replica applies it.
   */
  async decided(approval: DecidedApproval): Promise<void> {
    const state = await this.repository.findTrustByApproval(approval.id);
    if (state === null || state.pendingLevel === null) {
      return;
    }
    const to = state.pendingLevel as ToolAccessLevel;
    if (!(await this.repository.takePending(state.agentId, approval.id))) {
      return;
    }
    const agent = await this.agents.findByRef(state.agentId);
    if (agent === null) {
      return;
    }
    const byPerson = approval.decidedBy !== null && approval.decidedBy !== 'system';
    const fresh = { ...state, pendingApprovalId: null, pendingLevel: null };
    if (approval.status === 'approved' && byPerson) {
      await this.change(
        agent,
        fresh,
        to,
        `promotion approved (approval ${approval.id})`,
        approval.decidedBy ?? '?',
        new Date(),
      );
      return;
    }
    await this.repository.saveTrust(fresh);
    const from = toolPermissionsOf(agent).accessLevel;
    await this.record(
      agent,
      from,
      to,
      'rejected',
      `promotion to ${to} not approved (approval ${approval.id} ${approval.status}${byPerson ? '' : ' without a person'})`,
      approval.decidedBy ?? 'system',
    );
  }

  /**
   * Claims the promotion first (a compare-and-set on the trust row under the item's id), then files
   * the item: of two evaluations at once only one files it. A failed filing gives the claim back.
   */
  private async requestApproval(
    agent: AgentEntity,
    state: AgentTrustEntity,
    to: string,
    reason: string,
  ): Promise<void> {
    await this.repository.saveTrust(state);
    const approvalId = randomUUID();
    if (!(await this.repository.claimPending(agent.id, to, approvalId))) {
      return;
    }
    try {
      await this.approvals.fileRequest({
        id: approvalId,
        actionType: 'org:promote',
        title: `Raise ${agent.name}'s tool access from ${state.level} to ${to}`,
        description: `Progressive trust (${state.strategy}) proposes ${agent.name} for ${to} tool access: ${reason}. It applies only when a person approves.`,
        requestedBy: 'system',
        riskLevel: 'high',
        department: agent.department,
        metadata: {
          kind: 'trust_promotion',
          agent_id: agent.id,
          agent_name: agent.name.slice(0, 256),
          from: state.level,
          to,
        },
      });
    } catch (error) {
      await this.repository.takePending(agent.id, approvalId);
      throw error;
    }
    await this.record(
      agent,
      state.level,
      to,
      'pending',
      `promotion to ${to} waits for approval ${approvalId}: ${reason}`,
      'system',
    );
    this.log.info(
      { agent_id: agent.id, from: state.level, to, approval_id: approvalId },
      'security.trust.approval_requested',
    );
  }

  private async change(
    agent: AgentEntity,
    state: AgentTrustEntity,
    to: string,
    reason: string,
    actor: string,
    now: Date,
  ): Promise<void> {
    const settings = agent.settings as JsonObject & { tools?: JsonObject };
    const tools: JsonObject = { ...(settings.tools ?? {}), access_level: to };
    await this.agents.edit(agent, { settings: { ...settings, tools } });
    const runs = await this.runsOf(agent.id, now);
    await this.repository.saveTrust({
      ...state,
      level: to,
      runsAtLastChange: runs.length,
      lastChangedAt: now,
      lastVerifiedAt: now,
    });
    await this.record(agent, state.level, to, 'applied', reason, actor);
    this.log.info({ agent_id: agent.id, from: state.level, to, reason }, 'security.trust.changed');
  }

  private async record(
    agent: AgentEntity,
    from: string,
    to: string,
    outcome: 'applied' | 'pending' | 'rejected' | 'verified',
    reason: string,
    actor: string,
  ): Promise<void> {
    await this.audit.record({
      kind: 'trust_change',
      agentId: agent.id,
      taskId: null,
      toolName: null,
      actionType: 'org:promote',
      verdict: to,
      enforced: outcome,
      riskLevel: to === 'elevated' ? 'high' : 'medium',
      reason: `${from} → ${to}: ${reason}`,
      mode: 'active',
      finding: from,
      errorCode: null,
      actor,
    });
  }

  private runsOf(agentId: string, now: Date): Promise<TrustRun[]> {
    const since = new Date(now.getTime() - TRUST_WINDOW_DAYS * DAY_MS);
    return this.ledger.runSummariesSince(agentId, since, TRUST_RUNS_CAP);
  }

  private initial(agent: AgentEntity, now: Date): AgentTrustEntity {
    return {
      agentId: agent.id,
      strategy: this.strategy(),
      level: toolPermissionsOf(agent).accessLevel,
      score: null,
      pendingLevel: null,
      pendingApprovalId: null,
      runsAtLastChange: 0,
      lastChangedAt: null,
      lastVerifiedAt: agent.createdAt,
      evaluatedAt: now,
    };
  }
}
