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
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime, type Transaction, UnitOfWork } from '@app/platform';

import { AgentRoster, PersonalitiesService } from '../agents';
import { AuditTrail } from '../audit';
import type { HiringRequestDto } from './dto/hiring.dto';
import { HiringBudget } from './hiring-budget';
import { toHiringRequest } from './hiring.mapper';
import { HiringRepository } from './hiring.repository';
import { assertManages, HiringService } from './hiring.service';
import { OnboardingService } from './onboarding.service';

/**
 * Makes the agent of an approved hiring request: under the budget lock (its limit judged against its
 * department's share once more), one transaction hires the agent as `onboarding` with its `hired`
 * event, claims the request (a compare-and-set to `instantiated`) and stores the onboarding
 * checklist; then the checklist's tasks are made and assigned.
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
    private readonly unitOfWork: UnitOfWork,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.hiring');
  }

  async execute(actor: ActorContext, id: string): Promise<HiringRequestDto> {
    const row = await this.hiring.findOrThrow(id);
    assertManages(actor, row.department);
    assertInstantiable(row.id, row.status as HiringStatus);
    const candidate = row.candidates.find((c) => c.id === row.selectedCandidateId) ?? row.candidates[0];
    // The agent, the request's claim and the checklist in one transaction: of two calls one makes
    // the agent, and a refused hire (a name taken, the budget) leaves the request approved.
    const { agent, done, checklist } = await this.budget
      .locked(async () => {
        await this.budget.assertFits(row.department, row.budgetLimitMonthly);
        return this.unitOfWork.run(async (tx) => {
          const hired = await this.hire(actor, row, candidate, tx);
          const claimed = await this.requests.update(row, { status: 'instantiated', agentId: hired.id }, tx);
          if (!claimed) {
            throw new ConflictError(
              `Hiring request "${id}" changed meanwhile; read it again`,
              ErrorCode.VersionConflict,
            );
          }
          return { agent: hired, done: claimed, checklist: await this.onboarding.store(hired, id, tx) };
        });
      })
      .catch(async (error: unknown) => {
        // A lost claim answers with what the request became (instantiated: 4082).
        const now = await this.hiring.findOrThrow(id);
        assertInstantiable(now.id, now.status as HiringStatus);
        throw error;
      });
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
    await this.onboarding.launch(agent, checklist);
    return toHiringRequest(done);
  }

  private async hire(
    actor: ActorContext,
    row: HiringRequestEntity,
    candidate: HiringCandidateEntry,
    tx: Transaction,
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
      tx,
      true,
    );
  }
}
