import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import type { ApprovalGate, ChatMessage, ParkedRunDecision, PendingToolCall, ToolCall } from '@app/domain';
import type { ParkedRunEntity } from '@app/persistence';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ParkedRunsRepository } from './parked-runs.repository';

/** A run that waits no longer: its decision is in and a job should resume it. */
export interface ResumableRun {
  approvalId: string;
  taskId: string;
  agentId: string;
}

/** What a run that parks leaves behind. */
export interface ParkRequest {
  taskId: string;
  agentId: string;
  agentName: string;
  department: string | null;
  provider: string;
  model: string;
  messages: readonly ChatMessage[];
  pending: PendingToolCall;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  hasWorktree: boolean;
}

/** A parked run's saved context, as a resumed run reads it. */
export interface SavedRun {
  approvalId: string;
  provider: string;
  model: string;
  messages: ChatMessage[];
  pending: ToolCall;
  turns: number;
  inputTokens: number;
  outputTokens: number;
  hasWorktree: boolean;
  approved: boolean;
  reason: string | null;
  decidedBy: string | null;
  endRun: boolean;
}

const BATCH = 200;

/**
 * The engine's side of human approvals. A module registers the approval gate that files escalated
 * tool calls as approval items; a run that meets one saves its context here and ends parked. The
 * decision (a person's or a timeout's) marks the parked run decided and the dispatcher queues a job
 * that resumes it on whichever replica takes it; the claim decided → resumed makes that exactly once.
 */
@Injectable()
export class RunParking {
  private gate: ApprovalGate | null = null;
  private readonly listeners = new Set<(run: ResumableRun) => void>();
  private readonly log: Logger;

  constructor(
    private readonly runs: ParkedRunsRepository,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('engine.parking');
  }

  /** Registers where escalated calls are filed; without one they are refused (fail closed). */
  registerGate(gate: ApprovalGate): () => void {
    this.gate = gate;
    return () => {
      if (this.gate === gate) {
        this.gate = null;
      }
    };
  }

  /** Whether an escalated call can park the run (someone files approval items). */
  get canPark(): boolean {
    return this.gate !== null;
  }

  /** The dispatcher's hook: called for every run whose decision arrived. */
  onDecided(listener: (run: ResumableRun) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Saves the run's context, then files its approval item (with the saved run's id, so that a
   * decision can never arrive for a run not yet saved). Answers the approval item's id.
   */
  async park(request: ParkRequest): Promise<string> {
    const gate = this.gate;
    if (!gate) {
      throw new Error('no approval gate is registered');
    }
    const approvalId = randomUUID();
    await this.runs.insert(parkedRow(approvalId, request));
    try {
      await gate.request({
        approvalId,
        taskId: request.taskId,
        agentId: request.agentId,
        agentName: request.agentName,
        department: request.department,
        tool: request.pending.call.name,
        arguments: request.pending.call.arguments,
        reason: request.pending.reason,
        ...(request.pending.actionType !== undefined ? { actionType: request.pending.actionType } : {}),
        ...(request.pending.riskLevel !== undefined ? { riskLevel: request.pending.riskLevel } : {}),
      });
    } catch (error) {
      await this.runs.delete(approvalId).catch(() => undefined);
      throw error;
    }
    this.log.info({ task_id: request.taskId, approval_id: approvalId }, 'engine.run.parked');
    return approvalId;
  }

  /**
   * Records the decision for the run parked on the item and has it resumed. False when no run waits
   * on the item (an item filed through the API) or its decision was recorded already.
   */
  async decide(decision: ParkedRunDecision): Promise<boolean> {
    const decided = await this.runs.decide(decision.approvalId, {
      approved: decision.approved,
      decisionReason: decision.reason,
      decidedBy: decision.decidedBy,
      endRun: !decision.approved && decision.onRefusal === 'end_run',
    });
    if (!decided) {
      return false;
    }
    const row = await this.runs.find(decision.approvalId);
    if (row) {
      this.notify(row);
    }
    return true;
  }

  /** Decided runs not resumed yet (a lost job, a crash), oldest decision first. */
  async decidedRuns(): Promise<ResumableRun[]> {
    return (await this.runs.decided(BATCH)).map(resumable);
  }

  /** A decided run that will not continue (its task moved on): marked so it is not queued again. */
  async retire(approvalId: string): Promise<void> {
    if (await this.runs.claim(approvalId, 'retired')) {
      this.log.info({ approval_id: approvalId }, 'engine.parked.retired');
    }
  }

  /** Approval ids of runs still parked, oldest first. */
  async parkedApprovals(): Promise<string[]> {
    return (await this.runs.parked(BATCH)).map((row) => row.approvalId);
  }

  /** The decided run of the task waiting to be resumed, if any. */
  async decidedFor(taskId: string): Promise<ResumableRun | null> {
    const row = await this.runs.decidedFor(taskId);
    return row ? resumable(row) : null;
  }

  /** Takes a decided run for this replica: its saved context, or null when another took it. */
  async claim(approvalId: string, owner: string): Promise<SavedRun | null> {
    if (!(await this.runs.claim(approvalId, owner))) {
      return null;
    }
    const row = await this.runs.find(approvalId);
    return row ? savedRun(row) : null;
  }

  private notify(row: ParkedRunEntity): void {
    for (const listener of this.listeners) {
      listener(resumable(row));
    }
  }
}

function resumable(row: ParkedRunEntity): ResumableRun {
  return { approvalId: row.approvalId, taskId: row.taskId, agentId: row.agentId };
}

function parkedRow(approvalId: string, request: ParkRequest): ParkedRunEntity {
  return {
    approvalId,
    taskId: request.taskId,
    agentId: request.agentId,
    provider: request.provider,
    model: request.model,
    messages: [...request.messages],
    pendingCall: request.pending.call,
    turns: request.turns,
    inputTokens: request.inputTokens,
    outputTokens: request.outputTokens,
    hasWorktree: request.hasWorktree,
    state: 'parked',
    approved: null,
    decisionReason: null,
    endRun: null,
    decidedBy: null,
    resumedBy: null,
    createdAt: new Date(),
    decidedAt: null,
    resumedAt: null,
  };
}

function savedRun(row: ParkedRunEntity): SavedRun {
  return {
    approvalId: row.approvalId,
    provider: row.provider,
    model: row.model,
    messages: row.messages as ChatMessage[],
    pending: row.pendingCall as ToolCall,
    turns: row.turns,
    inputTokens: row.inputTokens,
    outputTokens: row.outputTokens,
    hasWorktree: row.hasWorktree,
    approved: row.approved === true,
    reason: row.decisionReason,
    decidedBy: row.decidedBy,
    endRun: row.endRun === true,
  };
}
