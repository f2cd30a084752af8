import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type AgentChangedPayload,
  assertAutonomyAllowed,
  type AutonomyLevel,
  CAREER_HISTORY_TYPES,
  Channel,
  computeAgentPerformance,
  ConflictError,
  ErrorCode,
  type EventTypeOf,
  type LifecycleEventType,
  type ModelTier,
  nameKey,
  NotFoundError,
  Page,
  type PageRequest,
  type PersonalityConfig,
  type SeniorityLevel,
} from '@app/domain';
import type { AgentEntity, AgentLifecycleEventEntity } from '@app/persistence';
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime, type Transaction } from '@app/platform';

import { RunLedger } from '../run-ledger';
import { defaultAgentSettings, toAgentConfig, toAgentConfigFromRow, toCareerEvent } from './agents.mapper';
import { AgentsRepository } from './agents.repository';
import type { AgentConfigDto, AgentPerformanceSummaryDto, CareerEventDto } from './dto/agent.dto';

const PERFORMANCE_LOOKBACK_MS = 90 * 24 * 3_600_000;

export interface NewAgent {
  name: string;
  role: string;
  department: string;
  level: SeniorityLevel;
  personalityPreset: string | null;
  personality: PersonalityConfig;
  modelProvider: string | null;
  modelId: string | null;
  modelTier: ModelTier;
  autonomyLevel: AutonomyLevel | null;
  budgetLimitMonthly: number | null;
}

/** The roster: reads for everyone with read access, hiring and edits for the setup wizard and HR. */
@Injectable()
export class AgentsService {
  private readonly log: Logger;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly ledger: RunLedger,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.agents');
  }

  async list(page: PageRequest): Promise<Page<AgentConfigDto>> {
    const { items, total } = await this.agents.page(page);
    return new Page(items.map(toAgentConfigFromRow), total, page.offset, page.limit);
  }

  async get(name: string): Promise<AgentConfigDto> {
    return toAgentConfig(await this.findOrThrow(name));
  }

  async findOrThrow(name: string): Promise<AgentEntity> {
    const agent = await this.agents.findByName(name);
    if (!agent) {
      throw new NotFoundError(`Agent "${name}" not found`, ErrorCode.AgentNotFound);
    }
    return agent;
  }

  async history(name: string): Promise<CareerEventDto[]> {
    const agent = await this.findOrThrow(name);
    return (await this.agents.history(agent.id, CAREER_HISTORY_TYPES)).map(toCareerEvent);
  }

  async performance(name: string): Promise<AgentPerformanceSummaryDto> {
    const agent = await this.findOrThrow(name);
    const now = new Date();
    const since = new Date(now.getTime() - PERFORMANCE_LOOKBACK_MS);
    return computeAgentPerformance(agent.name, await this.ledger.performanceRecordsSince(agent.id, since), now);
  }

  /**
   * Builds the rows of newly hired agents and their hired + onboarded events (no onboarding
   * service is wired yet, so agents start active). The caller inserts them, usually in a transaction.
   */
  prepareHires(
    hires: readonly NewAgent[],
    firstPosition: number,
    initiatedBy: string,
    reason: string,
  ): { agents: AgentEntity[]; events: AgentLifecycleEventEntity[] } {
    const now = new Date();
    const agents: AgentEntity[] = [];
    const events: AgentLifecycleEventEntity[] = [];
    hires.forEach((hire, index) => {
      assertAutonomyAllowed(hire.level, hire.autonomyLevel);
      const agent: AgentEntity = {
        id: randomUUID(),
        name: hire.name,
        nameKey: nameKey(hire.name),
        role: hire.role,
        department: nameKey(hire.department),
        level: hire.level,
        status: 'active',
        position: firstPosition + index,
        personalityPreset: hire.personalityPreset,
        personality: { ...hire.personality },
        modelProvider: hire.modelProvider,
        modelId: hire.modelId,
        modelTier: hire.modelTier,
        autonomyLevel: hire.autonomyLevel,
        budgetLimitMonthly: hire.budgetLimitMonthly,
        settings: defaultAgentSettings(),
        hiringDate: now,
        createdAt: now,
        updatedAt: now,
      };
      agents.push(agent);
      events.push(
        lifecycleEvent(agent, 'hired', now, initiatedBy, `Hired as ${hire.role} (${hire.level}) ${reason}`),
        lifecycleEvent(agent, 'onboarded', new Date(now.getTime() + 1), initiatedBy, 'Onboarded: active on the roster'),
      );
    });
    const names = new Set<string>();
    for (const agent of agents) {
      if (names.has(agent.nameKey)) {
        throw new ConflictError(`Two agents would be named "${agent.name}"`, ErrorCode.DuplicateRecord);
      }
      names.add(agent.nameKey);
    }
    return { agents, events };
  }

  async hire(hire: NewAgent, initiatedBy: string, reason: string, tx?: Transaction): Promise<AgentEntity> {
    if (await this.agents.findByName(hire.name)) {
      throw new ConflictError(`An agent named "${hire.name}" already exists`, ErrorCode.DuplicateRecord);
    }
    const position = await this.agents.nextPosition(tx);
    const { agents, events } = this.prepareHires([hire], position, initiatedBy, reason);
    try {
      await this.agents.insert(agents[0], tx);
    } catch (error) {
      if (await this.agents.findByName(hire.name)) {
        throw new ConflictError(`An agent named "${hire.name}" already exists`, ErrorCode.DuplicateRecord);
      }
      throw error;
    }
    await this.agents.insertEvents(events, tx);
    return agents[0];
  }

  /** Applies edits to one agent; a rename onto an existing name is a conflict. */
  async edit(
    agent: AgentEntity,
    changes: Partial<
      Pick<
        AgentEntity,
        'name' | 'modelProvider' | 'modelId' | 'personalityPreset' | 'personality' | 'autonomyLevel' | 'settings'
      >
    >,
  ): Promise<AgentEntity> {
    const next: AgentEntity = { ...agent, ...changes, updatedAt: new Date() };
    if (changes.name !== undefined) {
      next.nameKey = nameKey(changes.name);
      const holder = await this.agents.findByName(changes.name);
      if (holder && holder.id !== agent.id) {
        throw new ConflictError(`An agent named "${changes.name}" already exists`, ErrorCode.DuplicateRecord);
      }
    }
    try {
      await this.agents.update(agent.id, {
        ...changes,
        ...(changes.name !== undefined ? { nameKey: next.nameKey } : {}),
      });
    } catch (error) {
      if (changes.name !== undefined && (await this.agents.findByName(changes.name))?.id !== agent.id) {
        throw new ConflictError(`An agent named "${changes.name}" already exists`, ErrorCode.DuplicateRecord);
      }
      throw error;
    }
    await this.announce('agent.updated', { agent: toAgentConfig(next) });
    return next;
  }

  async announceHired(agents: readonly AgentEntity[]): Promise<void> {
    for (const agent of agents) {
      await this.announce('agent.hired', { agent: toAgentConfig(agent) });
    }
  }

  private announce(eventType: EventTypeOf<typeof Channel.Agents>, payload: AgentChangedPayload): Promise<void> {
    return announce(this.bus, this.log, { channel: Channel.Agents, event_type: eventType, payload });
  }
}

export function lifecycleEvent(
  agent: Pick<AgentEntity, 'id' | 'name'>,
  type: LifecycleEventType,
  at: Date,
  initiatedBy: string,
  details: string,
): AgentLifecycleEventEntity {
  return {
    id: randomUUID(),
    agentId: agent.id,
    agentName: agent.name,
    eventType: type,
    timestamp: at,
    initiatedBy,
    details,
    metadata: {},
  };
}
