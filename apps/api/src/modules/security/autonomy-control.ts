import { Injectable } from '@nestjs/common';

import {
  AUTONOMY_LEVELS,
  type AutonomyDowngradeReason,
  type AutonomyLevel,
  assertAutonomyAllowed,
  downgradeTarget,
  ErrorCode,
  NotFoundError,
  resolveAutonomy,
  type SeniorityLevel,
  stricterAutonomy,
} from '@app/domain';
import type { AgentEntity, AutonomyDowngradeEntity } from '@app/persistence';

import { AgentRoster } from '../agents';
import { CompanyService } from '../company';
import { SettingsSnapshot } from '../settings';
import { SecurityAudit } from './security-audit';
import { SecurityRepository } from './security.repository';

/** An agent's autonomy: what is in force and where each part comes from. */
export interface AutonomyState {
  readonly agent: AgentEntity;
  readonly level: AutonomyLevel;
  readonly source: 'agent' | 'department' | 'company' | 'default' | 'downgrade';
  readonly agentLevel: AutonomyLevel | null;
  readonly departmentLevel: AutonomyLevel | null;
  readonly companyLevel: AutonomyLevel;
  readonly downgrade: AutonomyDowngradeEntity | null;
}

function asLevel(value: unknown): AutonomyLevel | null {
  return typeof value === 'string' && (AUTONOMY_LEVELS as readonly string[]).includes(value)
    ? (value as AutonomyLevel)
    : null;
}

/** Agent references whose last answer is kept for the next read ({@link AutonomyControl.stateOf}). */
const MAX_REMEMBERED = 1_000;

/** Juniors never inherit `full` from their department or the company: they get `semi` instead. */
function capInherited<T extends { level: AutonomyLevel; source: string }>(agent: AgentEntity, resolved: T): T {
  return resolved.level === 'full' && resolved.source !== 'agent' && agent.level === 'junior'
    ? { ...resolved, level: 'semi' }
    : resolved;
}

/**
 * Autonomy per agent: resolution (agent, department, company default), the automatic downgrades
 * (each recorded, lifted only by a person) and the human write. Other modules call `lowerTo` or
 * `downgrade` through the face: the budget module on exhaustion, for instance.
 */
@Injectable()
export class AutonomyControl {
  /** By agent reference: the id and (when it inherits) the department the agent had when last asked about. */
  private readonly seen = new Map<string, { id: string; department: string | null }>();

  constructor(
    private readonly agents: AgentRoster,
    private readonly company: CompanyService,
    private readonly settings: SettingsSnapshot,
    private readonly repository: SecurityRepository,
    private readonly audit: SecurityAudit,
  ) {}

  /**
   * The autonomy in force for an agent (by id or name). @throws NotFoundError (3013).
   *
   * Every tool call asks, so an agent asked about before is read in one round trip: the agent, its
   * downgrade and its department's level side by side, the last two by the id and department seen
   * the last time. The agent's row decides: a guess it contradicts (another id under the name, a
   * move to another department) is read again, so the answer is always the stored one.
   */
  async stateOf(agentRef: string): Promise<AutonomyState> {
    const guess = this.seen.get(agentRef);
    if (!guess) {
      const agent = await this.agents.findByRef(agentRef);
      if (!agent) {
        throw new NotFoundError(`Agent "${agentRef}" not found`, ErrorCode.AgentNotFound);
      }
      this.remember(agentRef, agent);
      return this.stateOfAgent(agent);
    }
    const [agent, downgrade, guessedLevel] = await Promise.all([
      this.agents.findByRef(agentRef),
      this.repository.findDowngrade(guess.id),
      guess.department === null ? Promise.resolve(null) : this.departmentLevel(guess.department),
    ]);
    if (!agent) {
      this.seen.delete(agentRef);
      throw new NotFoundError(`Agent "${agentRef}" not found`, ErrorCode.AgentNotFound);
    }
    this.remember(agentRef, agent);
    if (agent.id !== guess.id) {
      return this.stateOfAgent(agent);
    }
    const agentLevel = asLevel(agent.autonomyLevel);
    let departmentLevel: AutonomyLevel | null = null;
    if (agentLevel === null) {
      departmentLevel =
        agent.department === guess.department ? guessedLevel : await this.departmentLevel(agent.department);
    }
    return this.resolve(agent, agentLevel, departmentLevel, downgrade);
  }

  async stateOfAgent(agent: AgentEntity): Promise<AutonomyState> {
    const agentLevel = asLevel(agent.autonomyLevel);
    // The department's level and the downgrade are read side by side.
    const [departmentLevel, downgrade] = await Promise.all([
      agentLevel === null ? this.departmentLevel(agent.department) : Promise.resolve(null),
      this.repository.findDowngrade(agent.id),
    ]);
    return this.resolve(agent, agentLevel, departmentLevel, downgrade);
  }

  private departmentLevel(department: string): Promise<AutonomyLevel | null> {
    return this.company.departmentAutonomy(department).then(asLevel, () => null);
  }

  /** What the next {@link stateOf} of `ref` reads beside the agent: the department only when it inherits. */
  private remember(ref: string, agent: AgentEntity): void {
    if (this.seen.size >= MAX_REMEMBERED && !this.seen.has(ref)) {
      this.seen.clear();
    }
    this.seen.set(ref, { id: agent.id, department: asLevel(agent.autonomyLevel) === null ? agent.department : null });
  }

  private resolve(
    agent: AgentEntity,
    agentLevel: AutonomyLevel | null,
    departmentLevel: AutonomyLevel | null,
    downgrade: AutonomyDowngradeEntity | null,
  ): AutonomyState {
    const companyLevel = asLevel(this.settings.value('company', 'autonomy_level')) ?? 'semi';
    const resolved = capInherited(agent, resolveAutonomy(agentLevel, departmentLevel, companyLevel));
    const downgraded = asLevel(downgrade?.currentLevel);
    const level = downgraded === null ? resolved.level : stricterAutonomy(resolved.level, downgraded);
    const source = downgraded !== null && level !== resolved.level ? 'downgrade' : resolved.source;
    return { agent, level, source, agentLevel, departmentLevel, companyLevel, downgrade };
  }

  /** Applies an automatic downgrade for a reason (one level, supervised or locked). */
  async downgrade(agentId: string, reason: AutonomyDowngradeReason, detail: string): Promise<AutonomyState> {
    const state = await this.stateOf(agentId);
    return this.lowerState(state, downgradeTarget(state.level, reason), reason, detail);
  }

  /**
   * Lowers an agent's autonomy to `level` (never raises: an agent already as strict keeps its level).
   * The downgrade holds until a person sets the agent's autonomy again.
   */
  async lowerTo(
    agentId: string,
    level: AutonomyLevel,
    reason: AutonomyDowngradeReason,
    detail: string,
  ): Promise<AutonomyState> {
    return this.lowerState(await this.stateOf(agentId), level, reason, detail);
  }

  /**
   * A person sets the agent's own level (null: inherit again). Juniors can never be `full`. Any
   * downgrade in force is lifted: this is the human recovery. Recorded with the user as actor.
   */
  async setByHuman(
    agentRef: string,
    level: AutonomyLevel | null,
    actor: string,
    note: string | null,
  ): Promise<AutonomyState> {
    const before = await this.stateOf(agentRef);
    assertAutonomyAllowed(before.agent.level as SeniorityLevel, level);
    const agent = await this.agents.edit(before.agent, { autonomyLevel: level });
    await this.repository.deleteDowngrade(agent.id);
    const after = await this.stateOfAgent(agent);
    await this.audit.record({
      kind: 'autonomy_change',
      agentId: agent.id,
      taskId: null,
      toolName: null,
      actionType: null,
      verdict: after.level,
      enforced: after.level,
      riskLevel: 'low',
      reason:
        `autonomy set to ${level ?? 'inherit'} (in force: ${after.level}, was ${before.level})` +
        (before.downgrade ? `; lifts the ${before.downgrade.reason} downgrade` : '') +
        (note ? `: ${note}` : ''),
      mode: 'active',
      finding: null,
      errorCode: null,
      actor,
    });
    return after;
  }

  private async lowerState(
    state: AutonomyState,
    target: AutonomyLevel,
    reason: AutonomyDowngradeReason,
    detail: string,
  ): Promise<AutonomyState> {
    const next = stricterAutonomy(state.level, target);
    if (next === state.level && state.downgrade !== null) {
      return state;
    }
    const row: AutonomyDowngradeEntity = {
      agentId: state.agent.id,
      originalLevel: state.downgrade?.originalLevel ?? state.level,
      currentLevel: next,
      reason,
      detail: detail.slice(0, 1024),
      downgradedAt: new Date(),
    };
    await this.repository.saveDowngrade(row);
    await this.audit.record({
      kind: 'autonomy_downgrade',
      agentId: state.agent.id,
      taskId: null,
      toolName: null,
      actionType: null,
      verdict: next,
      enforced: next,
      riskLevel: reason === 'security_incident' ? 'critical' : 'high',
      reason: `autonomy lowered from ${state.level} to ${next} (${reason}): ${detail}`,
      mode: 'active',
      finding: reason,
      errorCode: null,
      actor: 'system',
    });
    return { ...state, level: next, source: next === state.level ? state.source : 'downgrade', downgrade: row };
  }
}
