import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type AssignmentStrategy,
  assignSubtask,
  Channel,
  classifyStructure,
  computeWaves,
  COORDINATION_LIMITS,
  type CoordinationEventPayload,
  type CoordinationTopology,
  dispatchPlanOf,
  ErrorCode,
  limitWaves,
  parseTopology,
  resolveTopology,
  rollupStatus,
  type RoutingCandidate,
  type SeniorityLevel,
  ServiceUnavailableError,
  type SubtaskDefinition,
  ValidationError,
} from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { TaskEngine } from '../engine';
import { ModelRouter, ProviderRegistry } from '../providers';
import { SettingsSnapshot } from '../settings';
import { TaskLifecycle, TaskStatistics } from '../tasks';
import { CoordinationMetricsRecorder } from './coordination-metrics.recorder';
import { PhaseRecorder } from './coordination-phases';
import type { CoordinateTaskDto, CoordinationResultDto } from './dto/coordination.dto';
import { TaskDecomposer } from './task-decomposer';
import { type DispatchOutcome, type RoutedSubtask, WaveDispatcher } from './wave-dispatcher';

const NS = 'coordination';

/** What one coordination works with once its request is resolved. */
interface Coordination {
  parent: TaskEntity;
  coordinator: AgentEntity;
  candidates: AgentEntity[];
  by: string;
  failFast: boolean;
  concurrency: number | null;
  maxSubtasks: number;
  startedAt: Date;
}

/**
 * `POST /tasks/{task_id}/coordinate` (engine.md §5): decompose the task with a model call, route
 * the subtasks to agents, resolve the topology, validate, dispatch the subtasks in waves through the
 * engine's job queue, roll their statuses up and move the parent there. Each phase is timed; a
 * failure in decompose, route or validate aborts with 400 naming the phase.
 */
@Injectable()
export class CoordinateTaskUseCase {
  private readonly log: Logger;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly statistics: TaskStatistics,
    private readonly roster: AgentRoster,
    private readonly registry: ProviderRegistry,
    private readonly router: ModelRouter,
    private readonly engine: TaskEngine,
    private readonly decomposer: TaskDecomposer,
    private readonly dispatcher: WaveDispatcher,
    private readonly metrics: CoordinationMetricsRecorder,
    private readonly settings: SettingsSnapshot,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('coordination');
  }

  async execute(actor: ActorContext, taskId: string, dto: CoordinateTaskDto): Promise<CoordinationResultDto> {
    if (this.registry.list().length === 0 || !this.engine.isRunning) {
      throw new ServiceUnavailableError(
        'No coordinator is wired: no model provider is configured or the engine is off',
      );
    }
    const parent = await this.lifecycle.getOrThrow(taskId);
    const run = await this.resolve(actor, parent, dto);
    const startedAt = performance.now();
    const recorder = new PhaseRecorder();
    await this.announce('coordination_started', run, { topology: null });
    try {
      return await this.pipeline(run, recorder, startedAt);
    } catch (error) {
      const failed = recorder.failed;
      await this.announce('coordination_failed', run, {
        phase: failed?.phase ?? null,
        error: failed?.error ?? (error as Error).message,
        total_duration_seconds: seconds(startedAt),
        is_success: false,
      });
      throw error;
    }
  }

  private async pipeline(
    run: Coordination,
    recorder: PhaseRecorder,
    startedAt: number,
  ): Promise<CoordinationResultDto> {
    const { parent } = run;
    const decomposition = await recorder.abortOnFailure('decompose', async () => {
      await this.checkDepth(parent);
      return this.decomposer.decompose(parent, run.coordinator, run.candidates, run.maxSubtasks);
    });
    const routed = await recorder.abortOnFailure('route', () => this.route(run, decomposition.subtasks));
    const { topology, waves } = await recorder.abortOnFailure('resolve_topology', () =>
      this.plan(parent, routed, run.concurrency),
    );
    await recorder.abortOnFailure('validate', () => this.validate(run, routed, topology));
    const outcome = await this.dispatchAndRollUp(run, recorder, waves);
    const subtaskSpend = await this.metrics.record({
      parentId: parent.id,
      startedAt: run.startedAt,
      coordinationTokens: decomposition.tokens,
      subtasks: decomposition.subtasks,
      taskIds: outcome.taskIds,
      agentIds: [...new Set(waves.flat().map((r) => r.agent.id))],
    });
    const result: CoordinationResultDto = {
      parent_task_id: parent.id,
      topology,
      total_duration_seconds: seconds(startedAt),
      total_cost_usd: decomposition.cost + subtaskSpend.cost,
      phases: recorder.phases,
      wave_count: outcome.waveCount,
      is_success: recorder.isSuccess,
    };
    this.log.info({ task_id: parent.id, ...result, phases: undefined }, 'coordination.task.completed');
    await this.announce(result.is_success ? 'coordination_completed' : 'coordination_failed', run, {
      topology,
      subtask_ids: outcome.taskIds,
      wave_count: outcome.waveCount,
      phase: recorder.failed?.phase ?? null,
      error: recorder.failed?.error ?? null,
      total_duration_seconds: result.total_duration_seconds,
      is_success: result.is_success,
    });
    return result;
  }

  /** Dispatch (the parent held in progress meanwhile), rollup and the parent's update; none of them aborts. */
  private async dispatchAndRollUp(
    run: Coordination,
    recorder: PhaseRecorder,
    waves: RoutedSubtask[][],
  ): Promise<DispatchOutcome> {
    const dispatchStarted = performance.now();
    const claimed = await this.dispatcher.claimParent(run.parent, run.coordinator, run.by);
    const outcome = await this.dispatcher.run(claimed, waves, {
      failFast: run.failFast,
      waveTimeoutMs: this.settings.value<number>(NS, 'wave_timeout_seconds') * 1000,
      by: run.by,
    });
    recorder.add('dispatch', dispatchStarted, outcome.error);
    const target = await recorder.recordFailure('rollup', async () =>
      rollupStatus(await this.dispatcher.statuses(outcome.taskIds)),
    );
    await recorder.recordFailure('update_parent', async () => {
      if (target === null) {
        throw new Error('no rolled-up status to apply');
      }
      await this.dispatcher.finishParent(run.parent.id, target, run.by);
    });
    return outcome;
  }

  /** The request against the roster and the settings: candidates, coordinator, limits. */
  private async resolve(actor: ActorContext, parent: TaskEntity, dto: CoordinateTaskDto): Promise<Coordination> {
    const active = (await this.roster.all()).filter((a) => a.status === 'active');
    let candidates = active;
    if (dto.agent_names) {
      const seen = new Set<string>();
      candidates = dto.agent_names.map((name) => {
        const key = name.trim().toLowerCase();
        const agent = active.find((a) => a.nameKey === key);
        if (!agent || seen.has(key)) {
          throw new ValidationError(
            agent ? `agent_names: "${name}" is listed twice` : `agent_names: no active agent "${name}"`,
            ErrorCode.CoordinationAgentUnknown,
          );
        }
        seen.add(key);
        return agent;
      });
    }
    if (candidates.length === 0) {
      throw new ServiceUnavailableError('No coordinator is wired: there is no active agent to take subtasks');
    }
    // The most senior candidate coordinates: its model makes the decomposition, at its cost.
    const coordinator = [...candidates].sort((a, b) => rank(b.level) - rank(a.level))[0];
    const concurrency = dto.max_concurrency_per_wave ?? this.settings.value<number>(NS, 'max_concurrency_per_wave');
    return {
      parent,
      coordinator,
      candidates,
      by: actor.username,
      failFast: dto.fail_fast ?? this.settings.value<boolean>(NS, 'fail_fast'),
      concurrency,
      maxSubtasks: dto.max_subtasks ?? COORDINATION_LIMITS.defaultMaxSubtasks,
      startedAt: new Date(),
    };
  }

  /** A subtask may itself be coordinated, down to `max_depth` levels below a root task. */
  private async checkDepth(parent: TaskEntity): Promise<void> {
    const maxDepth = this.settings.value<number>(NS, 'max_depth');
    let depth = 0;
    let current: TaskEntity | null = parent;
    while (current?.parentTaskId && depth <= maxDepth) {
      depth += 1;
      current = await this.lifecycle.find(current.parentTaskId);
    }
    if (depth >= maxDepth) {
      throw new Error(`the task is ${depth} levels below its root; max_depth is ${maxDepth}`);
    }
  }

  /** Chooses an agent per subtask with the configured strategy, counting each choice against the agent's load. */
  private async route(run: Coordination, subtasks: SubtaskDefinition[]): Promise<(RoutedSubtask | string)[]> {
    const strategy = this.settings.value<string>(NS, 'assignment_strategy') as AssignmentStrategy;
    const options = {
      strategy,
      minScore: this.settings.value<number>(NS, 'min_score'),
      maxConcurrentTasksPerAgent: this.settings.value<number>(NS, 'max_concurrent_tasks_per_agent'),
      parentDepartment: run.coordinator.department,
    };
    const loads = await this.statistics.activeLoads();
    const candidates = run.candidates.map((agent) => this.candidateOf(agent, loads.get(agent.id) ?? 0));
    return subtasks.map((subtask) => {
      const assignment = assignSubtask(subtask, candidates, options);
      if (!assignment.ok) {
        if (strategy === 'manual') {
          throw new Error(assignment.reason);
        }
        return `subtask "${subtask.id}": ${assignment.reason}`;
      }
      const chosen = assignment.selected.candidate;
      const index = candidates.indexOf(chosen);
      candidates[index] = { ...chosen, load: chosen.load + 1 };
      return { definition: subtask, agent: run.candidates.find((a) => a.id === chosen.id) as AgentEntity };
    });
  }

  private candidateOf(agent: AgentEntity, load: number): RoutingCandidate {
    const skills = (agent.settings as { skills?: { primary?: unknown; secondary?: unknown } }).skills ?? {};
    const model = this.router
      .models()
      .find(
        (m) =>
          (m.id === agent.modelId || m.alias === agent.modelId) &&
          (!agent.modelProvider || m.provider === agent.modelProvider),
      );
    return {
      id: agent.id,
      name: agent.name,
      role: agent.role,
      department: agent.department,
      level: agent.level as SeniorityLevel,
      primarySkills: skillNames(skills.primary),
      secondarySkills: skillNames(skills.secondary),
      costPer1k: model ? model.costPer1kInput + model.costPer1kOutput : null,
      load,
    };
  }

  /** The topology (the task's own, else the setting; auto by the structure) and the waves it runs. */
  private plan(parent: TaskEntity, routed: (RoutedSubtask | string)[], concurrency: number | null) {
    const subtasks = routed.filter((r): r is RoutedSubtask => typeof r !== 'string');
    const graph = subtasks.map((r) => ({ ...r, id: r.definition.id, dependencies: r.definition.dependencies }));
    const dagWaves = computeWaves(graph);
    const own = parseTopology(parent.coordinationTopology);
    const requested: CoordinationTopology =
      own === 'auto' ? parseTopology(this.settings.value<string>(NS, 'default_topology')) : own;
    const topology = resolveTopology(requested, classifyStructure(dagWaves));
    const waves = dispatchPlanOf(topology).sequential
      ? dagWaves.flat().map((s) => [s])
      : limitWaves(dagWaves, concurrency);
    return { topology, waves: waves.map((wave) => wave.map(({ definition, agent }) => ({ definition, agent }))) };
  }

  private validate(run: Coordination, routed: (RoutedSubtask | string)[], topology: CoordinationTopology): void {
    const unroutable = routed.filter((r): r is string => typeof r === 'string');
    if (unroutable.length === routed.length) {
      throw new Error(`no subtask can be routed: ${unroutable.join('; ')}`);
    }
    if (unroutable.length > 0) {
      throw new Error(`subtasks no agent can take: ${unroutable.join('; ')}`);
    }
    if (run.parent.status !== 'created') {
      throw new Error(`the task is ${run.parent.status}; only a created task can be coordinated`);
    }
    const isolation = this.settings.value<boolean>(NS, 'enable_workspace_isolation');
    if (dispatchPlanOf(topology as Exclude<CoordinationTopology, 'auto'>).isolation === 'required' && !isolation) {
      throw new Error('the decentralized topology needs workspace isolation, which is disabled');
    }
  }

  private announce(
    type: 'coordination_started' | 'coordination_completed' | 'coordination_failed',
    run: Coordination,
    fields: Partial<CoordinationEventPayload>,
  ): Promise<void> {
    return announce(this.bus, this.log, {
      channel: Channel.Tasks,
      event_type: type,
      payload: {
        parent_task_id: run.parent.id,
        requested_by: run.by,
        topology: null,
        subtask_ids: [],
        wave_count: 0,
        phase: null,
        error: null,
        total_duration_seconds: null,
        is_success: null,
        ...fields,
      },
    });
  }
}

const SENIORITY = ['junior', 'mid', 'senior', 'lead', 'principal', 'director', 'vp', 'c_suite'];

function rank(level: string): number {
  return SENIORITY.indexOf(level);
}

function seconds(startedAt: number): number {
  return Math.round(((performance.now() - startedAt) / 1000) * 1e6) / 1e6;
}

/** Skill names from the agent's settings: strings, or objects with a `name`. */
function skillNames(value: unknown): string[] {
  if (!Array.isArray(value)) {
    return [];
  }
  return value
    .map((s: unknown) => (typeof s === 'string' ? s : (s as { name?: unknown } | null)?.name))
    .filter((s): s is string => typeof s === 'string');
}
