import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type AgentChangedPayload,
  type AgentPerformanceSummary,
  agentEtag,
  assertAutonomyAllowed,
  type AutonomyLevel,
  CAREER_HISTORY_TYPES,
  Channel,
  computeAgentPerformance,
  ConflictError,
  ErrorCode,
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
import { announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime, type Transaction, UnitOfWork } from '@app/platform';

import { RunLedger } from '../run-ledger';
import { SettingsSnapshot } from '../settings';
import { defaultAgentSettings, toAgentConfig, toAgentConfigFromRow, toCareerEvent } from './agents.mapper';
import { AgentsRepository } from './agents.repository';
import type { AgentConfigDto, AgentPerformanceSummaryDto, CareerEventDto } from './dto/agent.dto';
import { memoryDefaultLevel } from './memory-default-level';

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

/** The agent fields an edit may change (the setup wizard, security, and the agent's own route). */
export type AgentEdit = Partial<
  Pick<
    AgentEntity,
    | 'name'
    | 'department'
    | 'status'
    | 'modelProvider'
    | 'modelId'
    | 'personalityPreset'
    | 'personality'
    | 'autonomyLevel'
    | 'budgetLimitMonthly'
    | 'settings'
  >
>;

/** An edit through the agent's own route: its changes and the career event that records them. */
export interface VersionedAgentEdit {
  changes: AgentEdit;
  /** The parts that change (`model`, `status`, …), named in the `agent.updated` event. */
  changed: readonly string[];
  requestedBy: string;
  /** The career event's text and string map. */
  details: string;
  metadata: Record<string, string>;
}

/** A promotion or demotion: the agent's new level (and model, when it follows seniority) and its career event. */
export interface LevelChange {
  level: SeniorityLevel;
  /** The model the new level routes to, when the model follows seniority; null keeps the agent's. */
  model: { provider: string | null; modelId: string | null; tier: ModelTier } | null;
  type: 'promoted' | 'demoted';
  /** The career event's id, chosen when the change was decided (a repeat writes nothing). */
  eventId: string;
  decidedBy: string;
  approvalId: string | null;
  details: string;
  metadata: Record<string, string>;
}

/** The roster: reads for everyone with read access, hiring and edits for the setup wizard and HR. */
@Injectable()
export class AgentsService {
  private readonly log: Logger;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly ledger: RunLedger,
    private readonly bus: EventBus,
    private readonly unitOfWork: UnitOfWork,
    private readonly settings: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.agents');
  }

  /** An agent as the API shows it, its memory level the effective one. */
  render(agent: AgentEntity): AgentConfigDto {
    return toAgentConfig(agent, memoryDefaultLevel(this.settings));
  }

  async list(page: PageRequest): Promise<Page<AgentConfigDto>> {
    const { items, total } = await this.agents.page(page);
    const level = memoryDefaultLevel(this.settings);
    return new Page(
      items.map((row) => toAgentConfigFromRow(row, level)),
      total,
      page.offset,
      page.limit,
    );
  }

  /** One agent and its ETag (its version, for If-Match on edits). */
  async get(name: string): Promise<{ agent: AgentConfigDto; etag: string }> {
    const agent = await this.findOrThrow(name);
    return { agent: this.render(agent), etag: agentEtag(agent) };
  }

  /** An agent by (case-insensitive) name, or by id (a former agent whose name was released). */
  async findOrThrow(name: string): Promise<AgentEntity> {
    const agent = await this.agents.findByRef(name);
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
    return this.performanceOf(await this.findOrThrow(name));
  }

  /** The agent's performance summary now, from its recorded runs of the last 90 days. */
  async performanceOf(agent: AgentEntity): Promise<AgentPerformanceSummary> {
    const now = new Date();
    const since = new Date(now.getTime() - PERFORMANCE_LOOKBACK_MS);
    return computeAgentPerformance(agent.name, await this.ledger.performanceRecordsSince(agent.id, since), now);
  }

  /**
   * Builds the rows of newly hired agents and their career events. The setup wizard's hires start
   * active (hired + onboarded); a hire `toOnboard` starts `onboarding` with only its hired event (its
   * checklist records `onboarded` when done). The caller inserts them, usually in a transaction.
   */
  prepareHires(
    hires: readonly NewAgent[],
    firstPosition: number,
    initiatedBy: string,
    reason: string,
    toOnboard = false,
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
        status: toOnboard ? 'onboarding' : 'active',
        position: firstPosition + index,
        personalityPreset: hire.personalityPreset,
        personality: { ...hire.personality },
        modelProvider: hire.modelProvider,
        modelId: hire.modelId,
        modelTier: hire.modelTier,
        autonomyLevel: hire.autonomyLevel,
        budgetLimitMonthly: hire.budgetLimitMonthly,
        settings: defaultAgentSettings(),
        version: 1,
        hiringDate: now,
        createdAt: now,
        updatedAt: now,
      };
      agents.push(agent);
      events.push(lifecycleEvent(agent, 'hired', now, initiatedBy, `Hired as ${hire.role} (${hire.level}) ${reason}`));
      if (!toOnboard) {
        events.push(
          lifecycleEvent(
            agent,
            'onboarded',
            new Date(now.getTime() + 1),
            initiatedBy,
            'Onboarded: active on the roster',
          ),
        );
      }
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

  /** @throws ConflictError 4001 when the name is taken, 4098 when a former (terminated) agent had it. */
  async hire(
    hire: NewAgent,
    initiatedBy: string,
    reason: string,
    tx?: Transaction,
    toOnboard = false,
  ): Promise<AgentEntity> {
    assertNameUnused(hire.name, await this.agents.findByName(hire.name));
    const position = await this.agents.nextPosition(tx);
    const { agents, events } = this.prepareHires([hire], position, initiatedBy, reason, toOnboard);
    try {
      await this.agents.insert(agents[0], tx);
    } catch (error) {
      assertNameUnused(hire.name, await this.agents.findByName(hire.name));
      throw error;
    }
    await this.agents.insertEvents(events, tx);
    return agents[0];
  }

  /** Applies edits to one agent whatever its version; a rename onto an existing name is a conflict. */
  async edit(agent: AgentEntity, changes: AgentEdit): Promise<AgentEntity> {
    const next = nextAgent(agent, changes);
    await this.guardRename(agent, changes, () => this.agents.update(agent.id, rowChanges(next, changes)));
    await this.announce('agent.updated', { agent: this.render(next) });
    return next;
  }

  /**
   * Applies an edit of the agent's own route, with its `status_changed` career event in the same
   * transaction, only while the agent is still at the version it was read at: null when another
   * write came first. Announces `agent.updated` (and `agent.status_changed` for leave and return).
   */
  async editAtVersion(agent: AgentEntity, edit: VersionedAgentEdit): Promise<AgentEntity | null> {
    const next = nextAgent(agent, edit.changes);
    const written = await this.guardRename(agent, edit.changes, () =>
      this.unitOfWork.run(async (tx) => {
        if (!(await this.agents.updateAtVersion(agent.id, agent.version, rowChanges(next, edit.changes), tx))) {
          return false;
        }
        // One after the other, even within a millisecond: a career reads forwards.
        const last = (await this.agents.lastEventAt(agent.id, tx))?.getTime() ?? 0;
        const at = new Date(Math.max(Date.now(), last + 1));
        const event = lifecycleEvent(next, 'status_changed', at, edit.requestedBy, edit.details, edit.metadata);
        await this.agents.insertEvents([event], tx);
        return true;
      }),
    );
    if (!written) {
      return null;
    }
    const shown = this.render(next);
    await this.announce('agent.updated', { agent: shown, changed: [...edit.changed], requested_by: edit.requestedBy });
    if (next.status !== agent.status) {
      await announce(this.bus, this.log, {
        channel: Channel.Agents,
        event_type: 'agent.status_changed',
        payload: { agent: shown, status: next.status, previous_status: agent.status, requested_by: edit.requestedBy },
      });
    }
    return next;
  }

  /**
   * Moves the agent to a new level (and model) with its `promoted` or `demoted` career event in one
   * transaction, only while the agent is at the version it was read at: null when another write came
   * first. Announces `agent.promoted` / `agent.demoted` and `agent.updated`.
   */
  async changeLevelAtVersion(agent: AgentEntity, change: LevelChange): Promise<AgentEntity | null> {
    const changes: Partial<AgentEntity> = {
      level: change.level,
      ...(change.model
        ? { modelProvider: change.model.provider, modelId: change.model.modelId, modelTier: change.model.tier }
        : {}),
    };
    const next: AgentEntity = { ...agent, ...changes, version: agent.version + 1, updatedAt: new Date() };
    const written = await this.unitOfWork.run(async (tx) => {
      if (!(await this.agents.updateAtVersion(agent.id, agent.version, changes, tx))) {
        return false;
      }
      const last = (await this.agents.lastEventAt(agent.id, tx))?.getTime() ?? 0;
      const at = new Date(Math.max(Date.now(), last + 1));
      const event = lifecycleEvent(next, change.type, at, change.decidedBy, change.details, change.metadata);
      await this.agents.insertEvents([{ ...event, id: change.eventId }], tx);
      return true;
    });
    if (!written) {
      return null;
    }
    const shown = this.render(next);
    this.log.info(
      { agent_id: agent.id, from: agent.level, to: change.level, decided_by: change.decidedBy },
      change.type === 'promoted' ? 'hr.agent.promoted' : 'hr.agent.demoted',
    );
    await announce(this.bus, this.log, {
      channel: Channel.Agents,
      event_type: change.type === 'promoted' ? 'agent.promoted' : 'agent.demoted',
      payload: {
        agent: shown,
        old_level: agent.level,
        new_level: change.level,
        decided_by: change.decidedBy,
        approval_id: change.approvalId,
      },
    });
    await this.announce('agent.updated', {
      agent: shown,
      changed: change.model ? ['level', 'model'] : ['level'],
      requested_by: change.decidedBy,
    });
    return next;
  }

  /**
   * Frees a terminated agent's name for a new hire or a rename: its name key becomes a tombstone
   * (the agent keeps its name, id, history, costs and audit rows, and is still found by id), with a
   * `status_changed` career event. Answers false when the name was released already.
   */
  async releaseName(agent: AgentEntity, releasedBy: string): Promise<boolean> {
    const released = await this.unitOfWork.run(async (tx) => {
      if (!(await this.agents.updateAtVersion(agent.id, agent.version, { nameKey: releasedNameKey(agent.id) }, tx))) {
        return false;
      }
      const last = (await this.agents.lastEventAt(agent.id, tx))?.getTime() ?? 0;
      const at = new Date(Math.max(Date.now(), last + 1));
      const event = lifecycleEvent(agent, 'status_changed', at, releasedBy, `name "${agent.name}" released for reuse`, {
        changed: 'name_released',
        name: agent.name.slice(0, 256),
      });
      await this.agents.insertEvents([event], tx);
      return true;
    });
    if (released) {
      this.log.info({ agent_id: agent.id, agent_name: agent.name, released_by: releasedBy }, 'hr.agent.name_released');
      await announce(this.bus, this.log, {
        channel: Channel.Agents,
        event_type: 'agent.name_released',
        payload: { agent_id: agent.id, name: agent.name, released_by: releasedBy },
      });
    }
    return released;
  }

  /** Runs a write that may rename the agent: a name another agent holds is a conflict, before and after. */
  private async guardRename<T>(agent: AgentEntity, changes: AgentEdit, write: () => Promise<T>): Promise<T> {
    if (changes.name === undefined) {
      return write();
    }
    await this.assertNameFree(changes.name, agent.id);
    try {
      return await write();
    } catch (error) {
      // A concurrent rename or hire took the name between the check and the write (unique name key).
      await this.assertNameFree(changes.name, agent.id);
      throw error;
    }
  }

  private async assertNameFree(name: string, agentId: string): Promise<void> {
    const holder = await this.agents.findByName(name);
    assertNameUnused(name, holder?.id === agentId ? null : holder);
  }

  /**
   * Takes the agent off the work: its status becomes `terminated` (it keeps its row, history, costs and
   * audit rows). Answers the agent as it is now; terminating a terminated agent changes nothing.
   */
  async terminate(agent: AgentEntity): Promise<AgentEntity> {
    if (agent.status !== 'terminated') {
      await this.agents.update(agent.id, { status: 'terminated' });
      this.log.info({ agent_id: agent.id, agent_name: agent.name }, 'hr.agent.terminated');
    }
    return (await this.agents.findByRef(agent.id)) ?? { ...agent, status: 'terminated' };
  }

  /**
   * An onboarding agent whose checklist is done becomes active (a compare-and-set from `onboarding`)
   * with its `onboarded` career event (its id chosen by the caller: written once); announced as
   * `agent.onboarded` and `agent.status_changed`. Null when the agent is no longer onboarding.
   */
  async completeOnboarding(
    agent: AgentEntity,
    eventId: string,
    initiatedBy: string,
    details: string,
  ): Promise<AgentEntity | null> {
    const next = nextAgent(agent, { status: 'active' });
    const written = await this.unitOfWork.run(async (tx) => {
      if (
        agent.status !== 'onboarding' ||
        !(await this.agents.updateAtVersion(agent.id, agent.version, { status: 'active' }, tx))
      ) {
        return false;
      }
      const last = (await this.agents.lastEventAt(agent.id, tx))?.getTime() ?? 0;
      const event = lifecycleEvent(next, 'onboarded', new Date(Math.max(Date.now(), last + 1)), initiatedBy, details);
      await this.agents.insertEvents([{ ...event, id: eventId }], tx);
      return true;
    });
    if (!written) {
      return null;
    }
    const shown = this.render(next);
    await this.announce('agent.onboarded', { agent: shown, requested_by: initiatedBy });
    await announce(this.bus, this.log, {
      channel: Channel.Agents,
      event_type: 'agent.status_changed',
      payload: { agent: shown, status: 'active', previous_status: 'onboarding', requested_by: initiatedBy },
    });
    return next;
  }

  async announceHired(agents: readonly AgentEntity[]): Promise<void> {
    for (const agent of agents) {
      await this.announce('agent.hired', { agent: this.render(agent) });
    }
  }

  private announce(
    eventType: 'agent.hired' | 'agent.updated' | 'agent.onboarded',
    payload: AgentChangedPayload,
  ): Promise<void> {
    return announce(this.bus, this.log, { channel: Channel.Agents, event_type: eventType, payload });
  }
}

/**
 * A new or renamed agent's name must be free: held by nobody on the roster (4001), and never by a
 * former agent, whose name stays with its history (4098).
 */
function assertNameUnused(name: string, holder: AgentEntity | null): void {
  if (holder?.status === 'terminated') {
    throw new ConflictError(
      `"${name}" was the name of a former agent (terminated); names of former agents are not reused`,
      ErrorCode.AgentNameRetired,
    );
  }
  if (holder) {
    throw new ConflictError(`An agent named "${name}" already exists`, ErrorCode.DuplicateRecord);
  }
}

/** The name key of a former agent whose name was released: no name lower-cases to it. */
export function releasedNameKey(agentId: string): string {
  return `released:${agentId}`;
}

/** Whether the agent's name was released for reuse. */
export function nameReleased(agent: Pick<AgentEntity, 'id' | 'nameKey'>): boolean {
  return agent.nameKey === releasedNameKey(agent.id);
}

export function lifecycleEvent(
  agent: Pick<AgentEntity, 'id' | 'name'>,
  type: LifecycleEventType,
  at: Date,
  initiatedBy: string,
  details: string,
  metadata: Record<string, string> = {},
): AgentLifecycleEventEntity {
  return {
    id: randomUUID(),
    agentId: agent.id,
    agentName: agent.name,
    eventType: type,
    timestamp: at,
    initiatedBy,
    details,
    metadata,
  };
}

/** The agent as an edit leaves it: the next version, its name key following its name. */
function nextAgent(agent: AgentEntity, changes: AgentEdit): AgentEntity {
  return {
    ...agent,
    ...changes,
    ...(changes.name !== undefined ? { nameKey: nameKey(changes.name) } : {}),
    version: agent.version + 1,
    updatedAt: new Date(),
  };
}

/** The columns an edit writes: the changed ones, and the name key with the name. */
function rowChanges(next: AgentEntity, changes: AgentEdit): Partial<AgentEntity> {
  return { ...changes, ...(changes.name !== undefined ? { nameKey: next.nameKey } : {}) };
}
