import { randomUUID } from 'node:crypto';

import type { Logger } from 'pino';

import {
  calibratedInputTokens,
  type ChatMessage,
  type CallCategory,
  type ChatResult,
  type CostEntry,
  costOfCall,
  estimateCallCost,
  type ProviderModel,
  type ReactLoopPorts,
  type SpendRequest,
  type SpendVerdict,
  type ToolCall,
  type ToolDefinition,
  type ToolOutcome,
} from '@app/domain';
import type { AgentEntity, TaskEntity, ToolInvocationEntity } from '@app/persistence';

import type { RegisteredProvider } from '../providers';
import type { RunRecordsRepository } from './run-records.repository';
import type { RunSpend } from './run-spend';
import type { ToolInvoker } from './tools/tool-invoker';
import type { Workspace, WorkspaceManager } from './workspace/workspace-manager';

export interface RunControl {
  shouldStop(): boolean;
  /** Aborted when the grace period ends: in-flight calls and tools give up. */
  readonly signal: AbortSignal;
}

export interface SessionDeps {
  provider: RegisteredProvider;
  model: string;
  records: RunRecordsRepository;
  spend: RunSpend;
  workspaces: WorkspaceManager;
  tools: ToolInvoker;
  log: Logger;
  callTimeoutMs: number;
  /** The task's first run: no earlier run can have left a workspace branch to pick up. */
  firstRun?: boolean;
  /** An escalated call parks the run (an approval gate exists); otherwise it stays refused. */
  canPark?: boolean;
}

/**
 * One run's side of the ReAct loop: model calls with a cost record each, tool calls in the task's
 * worktree, and a spend reservation before every call. The worktree is made by the first tool that
 * may write; until then read-only tools look at the base branch's checkout, so runs that only read
 * (or use no tools) cost no git work at all.
 */
export class RunSession implements ReactLoopPorts {
  cost = 0;
  calls = 0;
  /** Input tokens of the first call: the seed prompt's size. */
  promptTokens = 0;
  /** Tokens of the run's calls in the coordination category (the orchestration ratio's numerator). */
  coordinationTokens = 0;
  /** The category of this run's model calls: an agent working its own task makes productive ones. */
  private readonly callCategory: CallCategory = 'productive';
  workspace: Workspace | null = null;
  private readonly pricing: ProviderModel | undefined;
  /**
   * The run's own rows (cost records, tool invocations) are written in order behind the loop, so
   * each insert overlaps the next model call or tool instead of delaying it. settle() waits for them
   * before the run's outcome is applied; a failed cost record stops the run at the next call.
   */
  private writes: Promise<void> = Promise.resolve();
  /** The reservation made for the next call, settled by its cost record or released. */
  private reservation: string | null = null;
  /** The first call's reservation, begun before the run was claimed ({@link reserveAhead}). */
  private ahead: AheadReservation | null = null;
  private writeError: Error | null = null;
  /** The budget refusal that stopped the run, with the refused call's estimate (a held run's re-check). */
  refusal: BudgetRefusal | null = null;
  /** The last call's reported usage and the size of its conversation: the next estimate builds on it. */
  private lastUsage: { inputTokens: number; outputTokens: number; messages: number } | null = null;

  constructor(
    private readonly task: TaskEntity,
    private readonly agent: AgentEntity,
    private readonly spentBefore: number,
    private readonly allowedTools: readonly string[] | undefined,
    private readonly control: RunControl,
    private readonly deps: SessionDeps,
  ) {
    const models = deps.provider.record.models;
    this.pricing = models.find((m) => m.id === deps.model) ?? models.find((m) => m.alias === deps.model);
  }

  get spent(): number {
    return this.spentBefore + this.cost;
  }

  shouldStop(): boolean {
    return this.control.shouldStop();
  }

  /**
   * Before each call: the spend control reserves the call's estimated cost against the task's cap,
   * the monthly hard stop and the agent's daily limit (across replicas), or refuses it.
   */
  async budgetExceeded(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): Promise<string | null> {
    const ahead = this.ahead;
    this.ahead = null;
    if (this.writeError) {
      throw this.writeError;
    }
    let verdict: SpendVerdict;
    let estimate: number;
    if (ahead !== null && ahead.tools === tools && sameMessages(ahead.messages, messages)) {
      verdict = await ahead.verdict;
      estimate = ahead.estimate;
    } else {
      if (ahead !== null) {
        await this.releaseAhead(ahead); // made for another conversation: not this call's
      }
      const request = this.spendRequest(messages, tools);
      estimate = request.estimatedCost;
      verdict = await this.deps.spend.reserve(request);
    }
    if (!verdict.ok) {
      this.refusal = { reason: verdict.reason, code: verdict.code, limit: verdict.limit ?? null, estimate };
      return verdict.reason;
    }
    this.reservation = verdict.reservationId;
    return null;
  }

  /**
   * Begins the first call's reservation while the run is being claimed, so that the claim's round
   * trip and the reservation's overlap. The first {@link budgetExceeded} with these messages and
   * tools takes its verdict; a run that loses its claim gives it back ({@link giveBack}).
   */
  reserveAhead(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): void {
    const request = this.spendRequest(messages, tools);
    const verdict = this.deps.spend.reserve(request);
    // Its failure is the first call's to report; until then it must not go unhandled.
    verdict.catch(() => undefined);
    this.ahead = { messages: [...messages], tools, verdict, estimate: request.estimatedCost };
  }

  /**
   * The reservation made ahead, if no call took it (the run lost its claim, or stopped first), is
   * released. Never throws: a release that fails is logged, and recovery takes the reservation when
   * it expires.
   */
  async giveBack(): Promise<void> {
    const ahead = this.ahead;
    this.ahead = null;
    if (ahead !== null) {
      await this.releaseAhead(ahead);
    }
  }

  private async releaseAhead(ahead: AheadReservation): Promise<void> {
    const verdict = await ahead.verdict.catch(() => null);
    if (verdict?.ok && verdict.reservationId !== null) {
      await this.deps.spend
        .release(verdict.reservationId)
        .catch((error: unknown) => this.deps.log.warn({ err: error }, 'engine.run.release_failed'));
    }
  }

  private spendRequest(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): SpendRequest {
    return {
      task: this.task,
      agent: this.agent,
      provider: this.deps.provider.record.name,
      model: this.deps.model,
      // The input the provider reported for the conversation so far, plus what was added since; the
      // output the agent's max_tokens allows (or the default): the most the call can cost.
      estimatedCost: estimateCallCost(
        this.pricing,
        messages,
        tools,
        this.modelSettings().max_tokens,
        calibratedInputTokens(this.lastUsage, messages, tools),
      ),
    };
  }

  async call(messages: readonly ChatMessage[], tools: readonly ToolDefinition[]): Promise<ChatResult> {
    const reservation = this.reservation;
    this.reservation = null;
    if (this.writeError) {
      this.release(reservation);
      throw this.writeError;
    }
    const settings = this.modelSettings();
    let result: ChatResult;
    try {
      result = await this.deps.provider.driver.chat({
        model: this.deps.model,
        messages: [...messages],
        ...(tools.length > 0 ? { tools: [...tools] } : {}),
        temperature: settings.temperature,
        maxOutputTokens: settings.max_tokens,
        signal: this.control.signal,
        timeoutMs: this.deps.callTimeoutMs,
      });
    } catch (error) {
      // No usage came back: nothing was billed, so the reservation is given back.
      this.release(reservation);
      throw error;
    }
    this.calls += 1;
    const { inputTokens, outputTokens } = result.usage;
    this.lastUsage = { inputTokens, outputTokens, messages: messages.length };
    if (this.calls === 1) {
      this.promptTokens = result.usage.inputTokens;
    }
    this.recordCost(result, reservation);
    return result;
  }

  private modelSettings(): { temperature?: number; max_tokens?: number } {
    return (this.agent.settings as { model?: { temperature?: number; max_tokens?: number } }).model ?? {};
  }

  private release(reservation: string | null): void {
    if (reservation !== null) {
      this.behind(() => this.deps.spend.release(reservation));
    }
  }

  /** Waits for the run's rows; throws the error of a cost record that could not be written. */
  async settle(): Promise<void> {
    await this.writes;
    if (this.writeError) {
      throw this.writeError;
    }
  }

  async invokeTool(call: ToolCall): Promise<ToolOutcome> {
    const outcome = await this.invokeChecked(call, false);
    // Without an approval gate nobody can decide: the escalated call stays refused (fail closed).
    if (outcome.escalation && this.deps.canPark !== true) {
      return { content: outcome.content, isError: outcome.isError };
    }
    return outcome;
  }

  /** Runs a call a person approved: escalations pass, denials still refuse. */
  invokeApproved(call: ToolCall): Promise<ToolOutcome> {
    return this.invokeChecked(call, true);
  }

  private async invokeChecked(call: ToolCall, approved: boolean): Promise<ToolOutcome> {
    const started = Date.now();
    let outcome: ToolOutcome;
    try {
      if (this.workspace === null && this.deps.tools.readsOnly(call.name)) {
        // Nothing written yet: a read sees the base branch, and no worktree is made for it.
        outcome = await this.deps.workspaces.readBase((root) => this.runTool(call, root, approved));
      } else {
        this.workspace ??= await this.deps.workspaces.acquire(this.task.id, { fresh: this.deps.firstRun === true });
        outcome = await this.runTool(call, this.workspace.path, approved);
      }
    } catch (error) {
      // The workspace itself failed (git, disk): the model hears about it like any tool failure.
      outcome = { content: `workspace unavailable: ${(error as Error).message}`, isError: true };
    }
    this.recordTool(call.name, outcome, Date.now() - started);
    return outcome;
  }

  private runTool(call: ToolCall, root: string, approved: boolean): Promise<ToolOutcome> {
    const author = { name: this.agent.name, email: `${this.agent.id}@agents.synthorg.local` };
    return this.deps.tools.invoke(
      { name: call.name, arguments: call.arguments },
      {
        root,
        taskId: this.task.id,
        agentId: this.agent.id,
        agentName: this.agent.name,
        signal: this.control.signal,
        commit: (message) => this.deps.workspaces.commitAll(this.task.id, message, author),
      },
      this.allowedTools,
      { approved },
    );
  }

  private behind(write: () => Promise<void>): void {
    this.writes = this.writes.then(write).catch((error: unknown) => {
      this.deps.log.error({ err: error }, 'engine.run.record_failed');
    });
  }

  private recordCost(result: ChatResult, reservation: string | null): void {
    const { inputTokens, outputTokens } = result.usage;
    const cost = costOfCall(this.pricing, inputTokens, outputTokens);
    this.cost += cost;
    if (this.callCategory === 'coordination') {
      this.coordinationTokens += inputTokens + outputTokens;
    }
    const entry: CostEntry = {
      id: randomUUID(),
      agentId: this.agent.id,
      taskId: this.task.id,
      provider: this.deps.provider.record.name,
      model: this.pricing?.id ?? this.deps.model,
      inputTokens,
      outputTokens,
      costUsd: cost,
      callCategory: this.callCategory,
      timestamp: new Date(),
    };
    this.behind(async () => {
      try {
        await this.deps.spend.record(entry, reservation);
      } catch (error) {
        this.writeError ??= new Error(`cost record not written: ${(error as Error).message}`, { cause: error });
      }
    });
  }

  private recordTool(tool: string, outcome: ToolOutcome, durationMs: number): void {
    this.deps.log.info({ tool, success: !outcome.isError, duration_ms: durationMs }, 'engine.tool.invoked');
    const row: ToolInvocationEntity = {
      id: randomUUID(),
      agentId: this.agent.id,
      taskId: this.task.id,
      toolName: tool.slice(0, 64),
      success: !outcome.isError,
      durationMs,
      error: outcome.isError ? outcome.content.slice(0, 512) : null,
      timestamp: new Date(),
    };
    this.behind(() => this.insertTool(row));
  }

  private async insertTool(row: ToolInvocationEntity): Promise<void> {
    try {
      await this.deps.records.insertToolInvocation(row);
    } catch (error) {
      // Diagnostic rows: a lost one is logged, and the run goes on.
      this.deps.log.error({ err: error, tool: row.toolName }, 'engine.tool.record_failed');
    }
  }
}

/** A reservation begun before the run's first call, for that call's conversation and tools. */
interface AheadReservation {
  messages: readonly ChatMessage[];
  tools: readonly ToolDefinition[];
  verdict: Promise<SpendVerdict>;
  estimate: number;
}

/** Why the spend control refused a run's call, and that call's estimate. */
export interface BudgetRefusal {
  reason: string;
  code: number;
  limit: string | null;
  estimate: number;
}

/** The same conversation: the same messages, in order (the loop copies the seed's array). */
function sameMessages(a: readonly ChatMessage[], b: readonly ChatMessage[]): boolean {
  return a.length === b.length && a.every((message, i) => message === b[i]);
}
