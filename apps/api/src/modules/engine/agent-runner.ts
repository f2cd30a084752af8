import { existsSync } from 'node:fs';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type ChatMessage,
  ConflictError,
  isOnboardingTask,
  NotFoundError,
  type ReactLoopResult,
  runReactLoop,
  seedMessages,
  type SeniorityLevel,
  type TaskStatus,
  type ToolDefinition,
} from '@app/domain';
import type { AgentEntity, TaskEntity } from '@app/persistence';
import { APP_CONFIG, type AppConfig, Correlation, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { ModelRouter, ProviderRegistry } from '../providers';
import { statusOf, TaskLifecycle } from '../tasks';
import { RunHolds } from './holds/run-holds';
import { RunParking, type SavedRun } from './parking/run-parking';
import { ENGINE_ACTOR, failedLoop, RunFinisher } from './run-finisher';
import { RunOutputs } from './run-outputs';
import { RunMemory } from './run-memory';
import { RunPreflight } from './run-preflight';
import { RunRecordsRepository } from './run-records.repository';
import { type RunControl, RunSession } from './run-session';
import { RunSpend } from './run-spend';
import { ToolInvoker } from './tools/tool-invoker';
import { WorkspaceManager } from './workspace/workspace-manager';

export { ENGINE_ACTOR } from './run-finisher';

/** A run this call made: the status its outcome stored, or null when the outcome was not applied. */
export interface RunEnd {
  stored: TaskStatus | null;
}

/** A run's session with the tools it offers and the conversation it opens with. */
interface OpenedRun {
  session: RunSession;
  tools: ToolDefinition[];
  seed: ChatMessage[];
}

interface Prepared {
  task: TaskEntity;
  agent: AgentEntity;
  provider: string;
  model: string;
  spent: number;
  /** The task had never started before this run: no cost records, no workspace branch yet. */
  firstRun: boolean;
  /** What the agent's memory recalled for the task: injected between the system prompt and the instruction. */
  memory: string | null;
}

/**
 * Runs one assigned task: route a model, pass the ordered pre-flight, claim the task (a
 * compare-and-set, so a duplicate job or another replica loses), run the ReAct loop with the
 * agent's tools in the task's worktree, then apply the outcome (engine.md §4) and record metrics.
 */
@Injectable()
export class AgentRunner {
  private readonly log: Logger;

  constructor(
    private readonly lifecycle: TaskLifecycle,
    private readonly agents: AgentRoster,
    private readonly registry: ProviderRegistry,
    private readonly router: ModelRouter,
    private readonly preflight: RunPreflight,
    private readonly records: RunRecordsRepository,
    private readonly spend: RunSpend,
    private readonly workspaces: WorkspaceManager,
    private readonly tools: ToolInvoker,
    private readonly parking: RunParking,
    private readonly finisher: RunFinisher,
    private readonly outputs: RunOutputs,
    private readonly memory: RunMemory,
    private readonly holds: RunHolds,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.runner');
  }

  /**
   * Runs the task if it is still waiting; null when this call did not run it. `assignee`, the agent
   * the task's job was queued for, is read beside the task; the run uses that read only if the task
   * still names that agent.
   */
  run(taskId: string, owner: string, control: RunControl, assignee?: string): Promise<RunEnd | null> {
    return Correlation.run({ task_id: taskId }, () => this.runInContext(taskId, owner, control, assignee));
  }

  private async runInContext(
    taskId: string,
    owner: string,
    control: RunControl,
    assignee?: string,
  ): Promise<RunEnd | null> {
    // A failed read here is not the run's: the run reads the agent again.
    const early = assignee ? this.agents.findByRef(assignee).catch(() => null) : Promise.resolve(null);
    // A deleted task has nothing to run; any other read failure is the run's failure, not silence.
    const task = await this.lifecycle.getOrThrow(taskId).catch((error: unknown) => {
      if (error instanceof NotFoundError) {
        return null;
      }
      throw error;
    });
    if (task?.status === 'in_progress' && task.runOwner === null) {
      return this.resume(task, owner, control, early);
    }
    const prepared = task ? await this.prepare(task, early, control) : null;
    if (!prepared) {
      return null;
    }
    return Correlation.run({ agent_id: prepared.agent.id }, () => this.claimAndExecute(prepared, owner, control));
  }

  /**
   * Claims the task and runs it. The first call's reservation is begun before the claim, so their
   * round trips overlap; a run that loses the claim (or fails to write it) gives it back at once.
   */
  private async claimAndExecute(prepared: Prepared, owner: string, control: RunControl): Promise<RunEnd | null> {
    if (control.shouldStop()) {
      // Stopped while it prepared (its task was moved away meanwhile): the task is not this run's to
      // claim, even if it has come back to `assigned` since, for another agent's run.
      return null;
    }
    const opened = this.open(prepared, control);
    opened?.session.reserveAhead(opened.seed, opened.tools);
    let claimed: TaskEntity | null;
    try {
      claimed = await this.claim(prepared.task, owner);
    } catch (error) {
      await opened?.session.giveBack();
      throw error;
    }
    if (!claimed) {
      await opened?.session.giveBack();
      return null;
    }
    return { stored: await this.execute({ ...prepared, task: claimed }, control, undefined, opened) };
  }

  /**
   * A parked run whose decision is in: take the task (a compare-and-set on its version, which the
   * parked run left without an owner), then the saved run (decided → resumed), and continue it with
   * the model it had. Whoever loses either step leaves the run to the winner.
   */
  private async resume(
    task: TaskEntity,
    owner: string,
    control: RunControl,
    early: Promise<AgentEntity | null>,
  ): Promise<RunEnd | null> {
    const waiting = await this.parking.decidedFor(task.id);
    const agent = waiting && task.assigneeId ? await this.assigneeOf(task.assigneeId, early) : null;
    if (!waiting || !agent) {
      return null;
    }
    const claimed = await this.takeOver(task, owner);
    const saved = claimed ? await this.parking.claim(waiting.approvalId, owner) : null;
    if (!claimed || !saved) {
      if (claimed) {
        await this.lifecycle.update(task.id, () => ({ runOwner: null, runHeartbeatAt: null }), { by: ENGINE_ACTOR });
      }
      return null;
    }
    this.log.info({ approval_id: saved.approvalId, approved: saved.approved }, 'engine.run.resumed');
    if (saved.endRun) {
      const reason = `approval ${saved.approvalId} refused by ${saved.decidedBy ?? '?'}: ${saved.reason ?? ''}`;
      const blocked = await this.lifecycle.transition(task.id, 'blocked', {
        by: ENGINE_ACTOR,
        current: claimed,
        changes: () => ({ runOwner: null, runHeartbeatAt: null, statusReason: reason }),
      });
      return { stored: statusOf(blocked) };
    }
    const spent = await this.records.taskSpend(task.id);
    // The saved conversation already holds what memory gave the run: nothing is injected again.
    const prepared = {
      task: claimed,
      agent,
      provider: saved.provider,
      model: saved.model,
      spent,
      firstRun: false,
      memory: null,
    };
    return { stored: await Correlation.run({ agent_id: agent.id }, () => this.execute(prepared, control, saved)) };
  }

  /** The task's assignee: the agent read beside the task when it is that one, else read now. */
  private async assigneeOf(assigneeId: string, early: Promise<AgentEntity | null>): Promise<AgentEntity | null> {
    const read = await early;
    return read?.id === assigneeId ? read : this.agents.findByRef(assigneeId);
  }

  private async takeOver(task: TaskEntity, owner: string): Promise<TaskEntity | null> {
    try {
      return await this.lifecycle.update(
        task.id,
        () => ({ runOwner: owner, runHeartbeatAt: new Date(), statusReason: null }),
        { by: ENGINE_ACTOR, expectedVersion: task.version, current: task },
      );
    } catch (error) {
      if (error instanceof ConflictError) {
        return null;
      }
      throw error;
    }
  }

  /**
   * Routes and pre-flights an assigned task; a refusal blocks the task with its reason. `early` is the
   * agent read beside the task: used when it is the task's assignee, read again otherwise.
   */
  private async prepare(
    task: TaskEntity,
    early: Promise<AgentEntity | null>,
    control: RunControl,
  ): Promise<Prepared | null> {
    if (task.status !== 'assigned' || !task.assigneeId) {
      return null;
    }
    const agent = await this.assigneeOf(task.assigneeId, early);
    if (agent?.status === 'terminated') {
      // A fired agent's tasks are its offboarding's to hand over (they stay assigned until it does).
      this.log.info({ task_id: task.id, agent_id: agent.id }, 'engine.run.assignee_terminated');
      return null;
    }
    // An agent still onboarding runs its checklist's tasks and nothing else.
    const mayRun = agent?.status === 'active' || (agent?.status === 'onboarding' && isOnboardingTask(task));
    if (!agent || !mayRun) {
      await this.block(task, `assignee ${task.assignedTo ?? '?'} is not an active agent`);
      return null;
    }
    let provider: string;
    let model: string;
    try {
      const decision = this.router.route({
        agentLevel: agent.level as SeniorityLevel,
        taskType: task.type,
        modelOverride: agent.modelId,
      });
      provider = decision.model.provider;
      model = decision.model.id;
    } catch (error) {
      await this.block(task, `no model for the run: ${(error as Error).message}`);
      return null;
    }
    // Cost records and workspace branches are made only by runs, and a run starts with the claim that
    // sets startedAt: a task that never started has spent nothing, without asking the database.
    const firstRun = task.startedAt === null;
    const spent = firstRun ? 0 : await this.records.taskSpend(task.id);
    const verdict = await this.preflight.run({ task, agent, provider, model, spentOnTask: spent });
    if (!verdict.ok) {
      this.log.warn({ check: verdict.check, code: verdict.code, reason: verdict.reason }, 'engine.preflight.refused');
      const detail = `pre-flight ${verdict.check}: ${verdict.reason}`;
      if (verdict.spendLimit === undefined) {
        await this.block(task, detail);
        return null;
      }
      // A spend limit: blocked with the held reason, and queued again once the limit lifts.
      const stop = { limit: verdict.spendLimit, code: verdict.code, detail };
      await this.holds.hold({ ...stop, task, agentId: agent.id, provider, model, estimate: 0 });
      await this.block(task, RunHolds.reasonOf(stop));
      return null;
    }
    const memory = await this.memory.recall(agent, task, control.signal);
    return { task, agent, provider: verdict.provider, model: verdict.model, spent, firstRun, memory };
  }

  private async claim(task: TaskEntity, owner: string): Promise<TaskEntity | null> {
    const now = new Date();
    try {
      return await this.lifecycle.transition(task.id, 'in_progress', {
        by: ENGINE_ACTOR,
        expectedVersion: task.version,
        current: task,
        changes: (row) => ({
          runOwner: owner,
          runHeartbeatAt: now,
          startedAt: row.startedAt ?? now,
          runStartedAt: now,
          statusReason: null,
        }),
      });
    } catch (error) {
      if (error instanceof ConflictError) {
        this.log.debug({ task_id: task.id }, 'engine.run.claim_lost');
        return null;
      }
      throw error;
    }
  }

  /**
   * The run's session, its tools and its opening messages; null when the routed provider is no
   * longer registered (the run then fails).
   */
  private open(prepared: Prepared, control: RunControl): OpenedRun | null {
    const { task, agent } = prepared;
    const registered = this.registry.get(prepared.provider);
    if (!registered) {
      return null;
    }
    const allowed = this.allowedTools(agent);
    const session = new RunSession(task, agent, prepared.spent, allowed, control, {
      provider: registered,
      model: prepared.model,
      records: this.records,
      spend: this.spend,
      workspaces: this.workspaces,
      tools: this.tools,
      log: this.log,
      callTimeoutMs: this.config.engine.callTimeoutSeconds * 1000,
      firstRun: prepared.firstRun,
      canPark: this.parking.canPark,
    });
    return {
      session,
      tools: this.tools.definitions(allowed),
      seed: withMemory(seedMessages(agent, task), prepared.memory),
    };
  }

  private async execute(
    prepared: Prepared,
    control: RunControl,
    resumed?: SavedRun,
    opened: OpenedRun | null = this.open(prepared, control),
  ): Promise<TaskStatus | null> {
    const { task, agent } = prepared;
    const startedAt = Date.now();
    this.log.info({ provider: prepared.provider, model: prepared.model }, 'engine.run.started');
    if (!opened) {
      const failed = failedLoop(`provider ${prepared.provider} is no longer registered`);
      return this.finisher.finish(prepared, null, failed, startedAt);
    }
    const { session } = opened;
    // A worktree left by an earlier run of this task (a crash, a retry) carries its work forward.
    if (existsSync(this.workspaces.pathOf(task.id))) {
      session.workspace = await this.workspaces.acquire(task.id).catch(() => null);
    }
    let result: ReactLoopResult;
    try {
      result = await runReactLoop(
        resumed ? await continuation(session, resumed) : opened.seed,
        opened.tools,
        session,
        this.config.engine.maxTurns,
        resumed,
      );
      // The final answer is scanned before anything keeps it: the parked conversation, the task, the logs.
      result = await this.outputs.apply(result, { taskId: task.id, agentId: agent.id, agentName: agent.name });
      if (result.reason === 'parked') {
        result = await this.park(prepared, session, result);
      }
    } catch (error) {
      result = failedLoop((error as Error).message);
    }
    // A run that stopped before its first call never took the reservation made ahead.
    await session.giveBack();
    if (result.reason === 'budget_exhausted' && session.refusal) {
      // Held before the outcome is written, so that a task left with the held reason always has its row.
      const { refusal } = session;
      const stop = { limit: refusal.limit, code: refusal.code, detail: refusal.reason };
      const { provider, model } = prepared;
      await this.holds.hold({ ...stop, task, agentId: agent.id, provider, model, estimate: refusal.estimate });
      result = { ...result, detail: RunHolds.reasonOf(stop) };
    }
    // The run's cost records and tool rows land before its outcome does (the finisher waits).
    return this.finisher.finish(prepared, session, result, startedAt);
  }

  /** Saves the run and files its approval item; the outcome then leaves the task waiting on it. */
  private async park(prepared: Prepared, session: RunSession, result: ReactLoopResult): Promise<ReactLoopResult> {
    const pending = result.pending;
    if (!pending) {
      return failedLoop('the run parked without a pending tool call');
    }
    try {
      const approvalId = await this.parking.park({
        taskId: prepared.task.id,
        agentId: prepared.agent.id,
        agentName: prepared.agent.name,
        department: prepared.agent.department,
        provider: prepared.provider,
        model: prepared.model,
        messages: result.messages,
        pending,
        turns: result.turns,
        inputTokens: result.inputTokens,
        outputTokens: result.outputTokens,
        hasWorktree: session.workspace !== null,
      });
      return { ...result, detail: `waiting for approval ${approvalId}: ${pending.reason}` };
    } catch (error) {
      return failedLoop(`approval could not be requested: ${(error as Error).message}`);
    }
  }

  /**
   * The agent's `tools.allowed` (empty: every tool) minus `tools.denied`, narrowed by the registered
   * offer filters (the security module's access level): the model is offered only these.
   */
  private allowedTools(agent: AgentEntity): readonly string[] {
    const tools = (agent.settings as { tools?: { allowed?: unknown; denied?: unknown } }).tools;
    const allowed = stringList(tools?.allowed);
    const denied = new Set(stringList(tools?.denied));
    const base = allowed.length > 0 ? allowed : this.tools.definitions().map((d) => d.name);
    return this.tools.offeredTo(
      base.filter((name) => !denied.has(name)),
      agent,
    );
  }

  private async block(task: TaskEntity, reason: string): Promise<void> {
    this.log.warn({ task_id: task.id, reason }, 'engine.task.blocked');
    await this.lifecycle
      .transition(task.id, 'blocked', {
        by: ENGINE_ACTOR,
        expectedVersion: task.version,
        changes: () => ({ statusReason: reason }),
      })
      .catch((error: unknown) => this.log.warn({ err: error }, 'engine.task.block_failed'));
  }
}

/** The seed's system prompt, then the recalled memory as one system message, then the instruction. */
function withMemory(seed: ChatMessage[], memory: string | null): ChatMessage[] {
  if (memory === null || seed.length < 2) {
    return seed;
  }
  return [seed[0], { role: 'system', content: memory }, ...seed.slice(1)];
}

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((t): t is string => typeof t === 'string') : [];
}

/**
 * The saved conversation and the pending call's result: the call itself once approved, or the
 * refusal with its reason, which the agent reads like any failed tool call.
 */
async function continuation(session: RunSession, saved: SavedRun): Promise<ChatMessage[]> {
  const refusal = `refused by ${saved.decidedBy ?? 'a reviewer'} (approval ${saved.approvalId}): ${saved.reason ?? 'no reason given'}`;
  const outcome = saved.approved ? await session.invokeApproved(saved.pending) : { content: refusal, isError: true };
  const call = saved.pending;
  return [
    ...saved.messages,
    {
      role: 'tool',
      toolCallId: call.id,
      name: call.name,
      content: outcome.content,
      ...(outcome.isError ? { isError: true } : {}),
    },
  ];
}
