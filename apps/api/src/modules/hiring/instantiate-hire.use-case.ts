import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  assertInstantiable,
  ConflictError,
  ErrorCode,
  type HiringStatus,
  type ModelTier,
  type SeniorityLevel,
} from '@app/domain';
import type { AgentEntity, HiringCandidateEntry, HiringRequestEntity } from '@app/persistence';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster, PersonalitiesService } from '../agents';
import { AuditTrail } from '../audit';
import type { HiringRequestDto } from './dto/hiring.dto';
import { HiringBudget } from './hiring-budget';
import { toHiringRequest } from './hiring.mapper';
import { HiringRepository } from './hiring.repository';
import { assertManages, HiringService } from './hiring.service';
import { OnboardingService } from './onboarding.service';

/**
 * Makes the agent of an approved hiring request: the request is claimed first (a compare-and-set to
 * `instantiated`, so of two calls one makes the agent), then the agent is hired as `onboarding` under
 * the budget lock (its limit judged against its department's share once more) with its `hired`
 * event, then its onboarding checklist starts. A refused hire (a name taken meanwhile, the budget)
 * gives the claim back.
 */
@Injectable()
export class InstantiateHireUseCase {
  private readonly log: Logger;

  constructor(
    private readonly requests: HiringRepository,
    private readonly hiring: HiringService,
    private readonly roster: AgentRoster,
    private readonly personalities: PersonalitiesService,
    private readonly budget: HiringBudget,
    private readonly onboarding: OnboardingService,
    private readonly audit: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.hiring');
  }

  async execute(actor: ActorContext, id: string): Promise<HiringRequestDto> {
    const row = await this.hiring.findOrThrow(id);
    assertManages(actor, row.department);
    assertInstantiable(row.id, row.status as HiringStatus);
    const candidate = row.candidates.find((c) => c.id === row.selectedCandidateId) ?? row.candidates[0];
    const claimed = await this.requests.update(row, { status: 'instantiated' });
    if (!claimed) {
      // Another call changed it first: answer with what it became.
      const now = await this.hiring.findOrThrow(id);
      assertInstantiable(now.id, now.status as HiringStatus);
      throw new ConflictError(`Hiring request "${id}" changed meanwhile; read it again`, ErrorCode.VersionConflict);
    }
    let agent: AgentEntity;
    try {
      agent = await this.budget.locked(async () => {
        await this.budget.assertFits(row.department, row.budgetLimitMonthly);
        return this.hire(actor, claimed, candidate);
      });
    } catch (error) {
      await this.requests.update(claimed, { status: 'approved' });
      throw error;
    }
    const done = (await this.requests.update(claimed, { agentId: agent.id })) ?? { ...claimed, agentId: agent.id };
    this.log.info({ hiring_request_id: id, agent_id: agent.id, agent: agent.name }, 'hr.agent.hired');
    await this.audit.record({
      actor: actor.username,
      action: 'agent.hired',
      target: `agent:${agent.id}`,
      outcome: 'success',
      details: {
        agent: agent.name,
        hiring_request_id: id,
        role: agent.role,
        level: agent.level,
        department: agent.department,
        model: `${candidate.modelProvider}/${candidate.modelId}`,
        budget_limit_monthly: row.budgetLimitMonthly,
      },
    });
    await this.roster.announceHired([agent]);
    await this.hiring.announce(done, actor.username);
    await this.onboarding.start(agent, id);
    return toHiringRequest(done);
  }

  private async hire(
    actor: ActorContext,
    row: HiringRequestEntity,
    candidate: HiringCandidateEntry,
  ): Promise<AgentEntity> {
    const preset = await this.personalities.resolve(candidate.personalityPreset);
    return this.roster.hire(
      {
        name: candidate.name,
        role: candidate.role,
        department: candidate.department,
        level: candidate.level as SeniorityLevel,
        personalityPreset: preset.name,
        personality: preset.personality,
        modelProvider: candidate.modelProvider,
        modelId: candidate.modelId,
        modelTier: candidate.modelTier as ModelTier,
        autonomyLevel: null,
        budgetLimitMonthly: row.budgetLimitMonthly,
      },
      actor.username,
      `through hiring request ${row.id}`,
      undefined,
      true,
    );
  }
}
