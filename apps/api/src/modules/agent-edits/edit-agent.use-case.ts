import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  agentChangeMetadata,
  agentEtag,
  assertAgentEditable,
  ConflictError,
  describeAgentChanges,
  ErrorCode,
  ForbiddenError,
  HumanRole,
  nameKey,
  NotFoundError,
} from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import {
  type ActorContext,
  DistributedLock,
  ifMatchGiven,
  ifMatchSatisfied,
  LOGGING_RUNTIME,
  type LoggingRuntime,
} from '@app/platform';

import { AgentRoster, type AgentConfigDto } from '../agents';
import { AuditTrail } from '../audit';
import { AgentBudgetLimits } from '../budget';
import { CompanyFacade } from '../company';
import { type AgentEditPlan, AgentEditPlanner } from './agent-edit-planner';
import type { UpdateAgentDto } from './dto/agent-edit.dto';

/** Reads and retries of an edit without If-Match that lost its compare-and-set to another write. */
const CAS_ATTEMPTS = 3;
/** Budget limits are judged and written one edit at a time, on every replica (a department's sum). */
const BUDGET_LOCK = 'agents.budget_limits';

/** An edited agent as the API renders it, with its new ETag. */
export interface EditedAgent {
  agent: AgentConfigDto;
  etag: string;
}

/**
 * Edits an agent after setup (PATCH /agents/{agent_name}): who may (the CEO; a manager for their
 * department's agents, without moving them out), what the edit refers to, the department's budget
 * share, and the agent's version (If-Match). The row, its `status_changed` career event and the
 * `agents` events come from the roster; the audit trail records who changed what.
 */
@Injectable()
export class EditAgentUseCase {
  private readonly log: Logger;

  constructor(
    private readonly roster: AgentRoster,
    private readonly planner: AgentEditPlanner,
    private readonly company: CompanyFacade,
    private readonly budget: AgentBudgetLimits,
    private readonly audit: AuditTrail,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.agents');
  }

  async execute(
    actor: ActorContext,
    name: string,
    dto: UpdateAgentDto,
    ifMatch: string | undefined,
  ): Promise<EditedAgent> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
      const agent = await this.findOrThrow(name);
      assertMayEdit(actor, agent, dto);
      assertAgentEditable(agent);
      const current = agentEtag(agent);
      if (!ifMatchSatisfied(ifMatch, current)) {
        throw new ConflictError(
          `Agent "${agent.name}" changed since it was read (If-Match ${ifMatch}, current ${current})`,
          ErrorCode.VersionConflict,
        );
      }
      const plan = await this.planner.plan(agent, dto);
      if (plan.fieldChanges.length === 0) {
        return { agent: this.roster.render(agent), etag: current };
      }
      const edited = await this.write(actor, agent, plan, dto.reason);
      if (edited) {
        await this.record(actor, agent, edited, plan, dto.reason);
        return { agent: this.roster.render(edited), etag: agentEtag(edited) };
      }
      if (ifMatchGiven(ifMatch)) {
        break;
      }
    }
    throw new ConflictError(
      `Agent "${name}" changed since it was read; read it again and retry`,
      ErrorCode.VersionConflict,
    );
  }

  private async findOrThrow(name: string): Promise<AgentEntity> {
    const agent = await this.roster.findByRef(name);
    if (!agent) {
      throw new NotFoundError(`Agent "${name}" not found`, ErrorCode.AgentNotFound);
    }
    return agent;
  }

  /** The compare-and-set write; a new monthly limit or department is judged under the budget lock. */
  private write(
    actor: ActorContext,
    agent: AgentEntity,
    plan: AgentEditPlan,
    reason: string | undefined,
  ): Promise<AgentEntity | null> {
    const edit = {
      changes: plan.changes,
      changed: plan.fieldChanges.map((change) => change.field),
      requestedBy: actor.username,
      details: describeAgentChanges(plan.fieldChanges, reason),
      metadata: { ...agentChangeMetadata(plan.fieldChanges), ...(reason ? { reason } : {}) },
    };
    // Judged only when what the department holds may grow: a new limit, or a move.
    const touchesBudget = plan.fieldChanges.some((c) => c.field === 'budget_limit_monthly' || c.field === 'department');
    if (!touchesBudget) {
      return this.roster.editAtVersion(agent, edit);
    }
    return this.lock.runExclusive(BUDGET_LOCK, async () => {
      await this.assertBudgetFits(agent, plan);
      return this.roster.editAtVersion(agent, edit);
    });
  }

  /** The agent's limit after the edit, with the other limits of the department it ends in, must fit its share. */
  private async assertBudgetFits(agent: AgentEntity, plan: AgentEditPlan): Promise<void> {
    const limit =
      plan.changes.budgetLimitMonthly === undefined ? agent.budgetLimitMonthly : plan.changes.budgetLimitMonthly;
    const departmentKey = plan.changes.department ?? agent.department;
    const moved = departmentKey !== agent.department;
    const department = plan.department ?? (await this.company.findDepartment(departmentKey));
    const others = (await this.roster.findByDepartment(departmentKey)).filter(
      (other) => other.id !== agent.id && other.status !== 'terminated' && other.budgetLimitMonthly !== null,
    );
    this.budget.assertFits({
      department: departmentKey,
      departmentPercent: department?.budgetPercent ?? 0,
      otherLimits: others.map((other) => other.budgetLimitMonthly as number),
      limit,
      previous: moved ? null : agent.budgetLimitMonthly,
    });
  }

  private async record(
    actor: ActorContext,
    before: AgentEntity,
    after: AgentEntity,
    plan: AgentEditPlan,
    reason: string | undefined,
  ): Promise<void> {
    const changed = plan.fieldChanges.map((change) => change.field);
    this.log.info(
      { actor: actor.username, agent_id: after.id, agent: after.name, changed, version: after.version },
      'hr.agent.updated',
    );
    await this.audit.record({
      actor: actor.username,
      action: 'agent.updated',
      target: `agent:${after.id}`,
      outcome: 'success',
      details: {
        agent: after.name,
        ...(before.name !== after.name ? { previous_name: before.name } : {}),
        changes: plan.fieldChanges,
        version: after.version,
        ...(reason ? { reason } : {}),
      },
    });
  }
}

/**
 * The CEO edits any agent. A manager edits only their department's agents and cannot move one into
 * another department: 403 with 1999 (the guard already refused every other role with 1001).
 */
function assertMayEdit(actor: ActorContext, agent: AgentEntity, dto: UpdateAgentDto): void {
  if (actor.role !== HumanRole.Manager) {
    return;
  }
  if (actor.department === null || actor.department !== agent.department) {
    throw new ForbiddenError(
      `Managers may only edit the agents of their own department; ${agent.name} is in ${agent.department}`,
      ErrorCode.AgentOutsideManagedDepartment,
    );
  }
  if (dto.department !== undefined && nameKey(dto.department) !== actor.department) {
    throw new ForbiddenError(
      `Managers may not move an agent into a department they do not manage (${dto.department})`,
      ErrorCode.AgentOutsideManagedDepartment,
    );
  }
}
