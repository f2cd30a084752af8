import { Injectable, type OnModuleInit } from '@nestjs/common';

import type { AgentPerformanceSummary, LifecycleEventType } from '@app/domain';
import type { AgentEntity, AgentLifecycleEventEntity } from '@app/persistence';
import type { Transaction } from '@app/platform';

import { ProviderUsage } from '../providers';
import { SettingsSnapshot } from '../settings';
import { AgentConfigDto } from './dto/agent.dto';
import { agentSettingsOf, type AgentSettings, toAgentConfig } from './agents.mapper';
import { AgentsRepository } from './agents.repository';
import { memoryDefaultLevel } from './memory-default-level';
import {
  type AgentEdit,
  AgentsService,
  type LevelChange,
  lifecycleEvent,
  nameReleased,
  type NewAgent,
  type VersionedAgentEdit,
} from './agents.service';

/** A career event another module records (its id chosen by the caller, so a repeat writes nothing). */
export interface CareerEvent {
  id: string;
  agent: Pick<AgentEntity, 'id' | 'name'>;
  type: LifecycleEventType;
  at: Date;
  initiatedBy: string;
  details: string;
  metadata?: Record<string, string>;
}

/**
 * The agents module's face for other modules: roster reads, and the few writes others need (hiring,
 * edits, replacing the roster from a template), so the `agents` table has one writing module.
 * Writes accept the caller's transaction.
 */
@Injectable()
export class AgentRoster implements OnModuleInit {
  constructor(
    private readonly agents: AgentsRepository,
    private readonly service: AgentsService,
    private readonly providerUsage: ProviderUsage,
    private readonly settings: SettingsSnapshot,
  ) {}

  onModuleInit(): void {
    this.providerUsage.answerAgentsUsing((provider) => this.agents.namesUsingProvider(provider));
  }

  count(): Promise<number> {
    return this.agents.count();
  }

  /** The roster in its stored order (the setup wizard's agent_index). */
  all(): Promise<AgentEntity[]> {
    return this.agents.all();
  }

  /** Every agent in roster order, as the API renders it (AgentConfig). */
  async configs(): Promise<AgentConfigDto[]> {
    const level = memoryDefaultLevel(this.settings);
    return (await this.agents.all()).map((agent) => toAgentConfig(agent, level));
  }

  /** One agent as the API renders it (AgentConfig). */
  render(agent: AgentEntity): AgentConfigDto {
    return toAgentConfig(agent, memoryDefaultLevel(this.settings));
  }

  /**
   * The agent's settings with every group (model, memory, tools, authority, skills) complete, as
   * stored: `memory.type` stays unset when the agent follows the company's default level.
   */
  settingsOf(agent: AgentEntity): Required<AgentSettings> {
    return agentSettingsOf(agent);
  }

  /** An agent by id or (case-insensitive) name. */
  findByRef(ref: string): Promise<AgentEntity | null> {
    return this.agents.findByRef(ref);
  }

  findByDepartment(departmentKey: string): Promise<AgentEntity[]> {
    return this.agents.findByDepartment(departmentKey);
  }

  /** Head count per department key. */
  countByDepartment(departmentKey?: string): Promise<Map<string, number>> {
    return this.agents.countByDepartment(departmentKey);
  }

  /** Lower-cased names already taken. */
  namesInUse(): Promise<Set<string>> {
    return this.agents.namesInUse();
  }

  /** See AgentsService.prepareHires: builds rows and career events, writes nothing. */
  prepareHires(
    hires: readonly NewAgent[],
    firstPosition: number,
    initiatedBy: string,
    reason: string,
  ): { agents: AgentEntity[]; events: AgentLifecycleEventEntity[] } {
    return this.service.prepareHires(hires, firstPosition, initiatedBy, reason);
  }

  /**
   * Hires one agent at the end of the roster; a taken name is a conflict. `toOnboard`: it starts
   * `onboarding` (its checklist makes it active), else active at once.
   */
  hire(hire: NewAgent, initiatedBy: string, reason: string, tx?: Transaction, toOnboard = false): Promise<AgentEntity> {
    return this.service.hire(hire, initiatedBy, reason, tx, toOnboard);
  }

  /** See AgentsService.completeOnboarding: onboarding → active with its `onboarded` event, once. */
  completeOnboarding(
    agent: AgentEntity,
    eventId: string,
    initiatedBy: string,
    details: string,
  ): Promise<AgentEntity | null> {
    return this.service.completeOnboarding(agent, eventId, initiatedBy, details);
  }

  /** Replaces the whole roster and its career log with prepared hires (a template applied again). */
  async replaceAll(
    prepared: { agents: readonly AgentEntity[]; events: AgentLifecycleEventEntity[] },
    tx: Transaction,
  ): Promise<void> {
    await this.agents.deleteAll(tx);
    for (const agent of prepared.agents) {
      await this.agents.insert(agent, tx);
    }
    await this.agents.insertEvents(prepared.events, tx);
  }

  /** Edits one agent and announces it; a rename onto a taken name is a conflict. */
  edit(agent: AgentEntity, changes: AgentEdit): Promise<AgentEntity> {
    return this.service.edit(agent, changes);
  }

  /**
   * Edits one agent through its own route: only while it is at the version it was read at (null
   * otherwise), with a `status_changed` career event in the same transaction, then announced.
   */
  editAtVersion(agent: AgentEntity, edit: VersionedAgentEdit): Promise<AgentEntity | null> {
    return this.service.editAtVersion(agent, edit);
  }

  /** The agent's performance summary now (as `GET /agents/{agent_name}/performance` answers it). */
  performance(agent: AgentEntity): Promise<AgentPerformanceSummary> {
    return this.service.performanceOf(agent);
  }

  /** A promotion or demotion at the version the agent was read at (null otherwise); see AgentsService. */
  changeLevelAtVersion(agent: AgentEntity, change: LevelChange): Promise<AgentEntity | null> {
    return this.service.changeLevelAtVersion(agent, change);
  }

  /** Frees a terminated agent's name for reuse; false when it was released already. */
  releaseName(agent: AgentEntity, releasedBy: string): Promise<boolean> {
    return this.service.releaseName(agent, releasedBy);
  }

  /** Whether the agent's name was released for reuse. */
  nameReleased(agent: AgentEntity): boolean {
    return nameReleased(agent);
  }

  /** Takes the agent off the work for good (status `terminated`); see AgentsService.terminate. */
  terminate(agent: AgentEntity): Promise<AgentEntity> {
    return this.service.terminate(agent);
  }

  /** Records a career event once: an event whose id is already stored is not written again. */
  recordCareerEvent(event: CareerEvent): Promise<void> {
    const row = lifecycleEvent(event.agent, event.type, event.at, event.initiatedBy, event.details, event.metadata);
    return this.agents.insertEventIfMissing({ ...row, id: event.id });
  }

  announceHired(agents: readonly AgentEntity[]): Promise<void> {
    return this.service.announceHired(agents);
  }
}
