import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import { ConflictError, ErrorCode, ForbiddenError, HumanRole, NotFoundError } from '@app/domain';
import type { AgentEntity, OffboardingRecordEntity } from '@app/persistence';
import { type ActorContext, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { AuditTrail } from '../audit';
import type { FireAgentDto, OffboardingRecordDto } from './dto/offboarding.dto';
import { OffboardAgentUseCase } from './offboard-agent.use-case';
import { toOffboardingRecord } from './offboarding.mapper';
import { OffboardingRepository } from './offboarding.repository';

/** Unfinished records a startup resumes at most (each is one fired agent). */
const RESUME_BATCH = 500;

/**
 * Firing: the decision (who may fire whom, once), its record and audit row, then the offboarding
 * pipeline; the record's read; and, at startup, the pipelines a previous process left unfinished.
 */
@Injectable()
export class OffboardingService {
  private readonly log: Logger;

  constructor(
    private readonly records: OffboardingRepository,
    private readonly roster: AgentRoster,
    private readonly pipeline: OffboardAgentUseCase,
    private readonly audit: AuditTrail,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.offboarding');
  }

  /** Fires the agent and runs its offboarding to the end; answers the finished record. */
  async fire(actor: ActorContext, agentName: string, dto: FireAgentDto): Promise<OffboardingRecordDto> {
    const record = await this.begin(actor, agentName, dto);
    return toOffboardingRecord(await this.pipeline.execute(record.id));
  }

  /**
   * The decision: checks it and stores the record (no step done yet) with its audit row. The pipeline
   * is the caller's to run.
   * @throws NotFoundError 3013 for an unknown agent; ForbiddenError 1001 for a manager of another
   * department; ConflictError 4099 when the agent was fired already or is terminated.
   */
  async begin(actor: ActorContext, agentName: string, dto: FireAgentDto): Promise<OffboardingRecordEntity> {
    const agent = await this.agentOrThrow(agentName);
    if (actor.role === HumanRole.Manager && actor.department !== agent.department) {
      await this.audit.record({
        actor: actor.username,
        action: 'agent.fired',
        target: `agent:${agent.name}`,
        outcome: 'denied',
        details: { reason: dto.reason, department: agent.department, why: "outside the manager's department" },
      });
      throw new ForbiddenError(`Managers may only fire agents of their own department; ${agent.name} is not in it`);
    }
    if (agent.status === 'terminated' || (await this.records.findByAgent(agent.id))) {
      throw alreadyFired(agent);
    }
    const record = await this.start(agent, actor.username, dto, {});
    if (record === null) {
      throw alreadyFired(agent);
    }
    return record;
  }

  /**
   * Stores the record (one per agent: null when another came first) with its `agent.fired` audit
   * row; `extra` adds to the row's details (the approval a firing came from).
   */
  async start(
    agent: AgentEntity,
    requestedBy: string,
    dto: FireAgentDto,
    extra: Record<string, unknown>,
    auditActor: string = requestedBy,
  ): Promise<OffboardingRecordEntity | null> {
    const record = newRecord(agent, requestedBy, dto);
    if (!(await this.records.insert(record))) {
      return null;
    }
    await this.audit.record({
      actor: auditActor,
      action: 'agent.fired',
      target: `agent:${agent.name}`,
      outcome: 'success',
      details: {
        firing_request_id: record.id,
        agent_id: agent.id,
        department: agent.department,
        reason: record.reason,
        details: record.details,
        ...extra,
      },
    });
    this.log.info(
      { firing_request_id: record.id, agent_id: agent.id, reason: record.reason, requested_by: requestedBy, ...extra },
      'hr.agent.fired',
    );
    return record;
  }

  /** Runs a stored record's pipeline to its end. */
  async run(recordId: string): Promise<OffboardingRecordDto> {
    return toOffboardingRecord(await this.pipeline.execute(recordId));
  }

  /** Whether the agent has a firing record (its offboarding began). */
  async wasFired(agentId: string): Promise<boolean> {
    return (await this.records.findByAgent(agentId)) !== null;
  }

  /** @throws NotFoundError 3013 for an unknown agent. */
  async agentOrThrow(name: string): Promise<AgentEntity> {
    const agent = await this.roster.findByRef(name);
    if (!agent) {
      throw new NotFoundError(`Agent "${name}" not found`, ErrorCode.AgentNotFound);
    }
    return agent;
  }

  /** @throws NotFoundError 3013 for an unknown agent, 3099 for one that was never fired. */
  async offboarding(agentName: string): Promise<OffboardingRecordDto> {
    const agent = await this.agentOrThrow(agentName);
    const record = await this.records.findByAgent(agent.id);
    if (!record) {
      throw new NotFoundError(
        `Agent "${agent.name}" was never fired: it has no offboarding record`,
        ErrorCode.OffboardingNotFound,
      );
    }
    return toOffboardingRecord(record);
  }

  /** Finishes every pipeline a previous process left unfinished; a failure is logged and left for the next start. */
  async resumeUnfinished(): Promise<void> {
    let resumed = 0;
    for (const record of await this.records.unfinished(RESUME_BATCH)) {
      try {
        await this.pipeline.execute(record.id);
        resumed += 1;
      } catch (error) {
        this.log.error({ err: error, firing_request_id: record.id, step: record.step }, 'hr.offboarding.resume_failed');
      }
    }
    if (resumed > 0) {
      this.log.info({ resumed }, 'hr.offboarding.resumed');
    }
  }
}

export function alreadyFired(agent: AgentEntity): ConflictError {
  return new ConflictError(
    `${agent.name} has been fired already; see GET /api/v1/agents/${agent.name}/offboarding`,
    ErrorCode.AgentAlreadyFired,
  );
}

/** A firing request at its start: no step done, the ids of what its steps will write chosen now. */
function newRecord(agent: AgentEntity, requestedBy: string, dto: FireAgentDto): OffboardingRecordEntity {
  const now = new Date();
  return {
    id: randomUUID(),
    agentId: agent.id,
    agentName: agent.name,
    department: agent.department,
    reason: dto.reason,
    details: (dto.details ?? '').trim(),
    requestedBy,
    step: 'requested',
    version: 1,
    stepLog: [],
    handover: [],
    firedEventId: randomUUID(),
    offboardedEventId: randomUUID(),
    teamMessageId: randomUUID(),
    teamChannel: null,
    memoryArchiveId: null,
    orgMemoriesPromoted: 0,
    startedAt: now,
    completedAt: null,
    updatedAt: now,
  };
}
