import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  checkDelegationAuthority,
  checkDelegationLoop,
  ConflictError,
  delegationFingerprint,
  DelegationRefusedError,
  ErrorCode,
  type HierarchyPolicy,
  type LoopPreventionConfig,
  loopHistorySince,
  NotFoundError,
  requireText,
  supervisorsOf,
  type TaskPriority,
} from '@app/domain';
import type { AgentEntity, DelegationRecordEntity, TaskEntity } from '@app/persistence';
import { DistributedLock, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { CompanyFacade } from '../company';
import { MessagePosting } from '../messages';
import { SettingsSnapshot } from '../settings';
import { newTaskRow, TaskLifecycle } from '../tasks';
import { DelegationRepository } from './delegation.repository';
import { toOrgAgent, toOrgDepartment } from './org-chart';

/** What a delegation asks for: who hands which part of which task to whom. */
export interface DelegationRequest {
  /** The delegating agent (id or name). */
  delegator: string;
  /** The agent to take the work (id or name). */
  delegatee: string;
  /** The delegator's task the work is split from: the subtask's parent. */
  originalTaskId: string;
  title: string;
  description: string;
  /** Extra guidance for the delegatee, appended to the subtask's description. */
  refinement?: string;
  /** Conditions the delegatee must respect, appended as a list. */
  constraints?: readonly string[];
  /** The subtask's priority; the parent's when absent. */
  priority?: TaskPriority;
}

export interface DelegationResult {
  record: DelegationRecordEntity;
  task: TaskEntity;
}

/**
 * Delegation (one agent hands part of its task to another): the authority check, the loop checks in
 * their order, then the subtask, created through the task lifecycle with its parent and delegation
 * chain and assigned to the delegatee (so the engine runs it), and the record. The only writer of
 * `delegation_records`.
 */
@Injectable()
export class DelegationService {
  private readonly log: Logger;

  constructor(
    private readonly records: DelegationRepository,
    private readonly roster: AgentRoster,
    private readonly company: CompanyFacade,
    private readonly lifecycle: TaskLifecycle,
    private readonly posting: MessagePosting,
    private readonly settings: SettingsSnapshot,
    private readonly lock: DistributedLock,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('communication.delegation');
  }

  /** @throws DelegationRefusedError when the authority or a loop-prevention check refuses. */
  async delegate(request: DelegationRequest): Promise<DelegationResult> {
    const title = requireText('title', request.title);
    const description = requireText('description', request.description);
    const delegator = await this.agentOrThrow(request.delegator);
    const delegatee = await this.agentOrThrow(request.delegatee);
    if (delegatee.status === 'terminated') {
      throw new ConflictError(
        `Agent "${delegatee.name}" is terminated and cannot take tasks`,
        ErrorCode.AgentNotAvailable,
      );
    }
    const parent = await this.lifecycle.getOrThrow(request.originalTaskId);
    await this.checkAuthority(delegator, delegatee);

    // One pair at a time across replicas: the rate, dedup and breaker checks read the records the
    // previous delegation of the pair wrote, so two concurrent requests cannot both pass.
    const pairKey = [delegator.id, delegatee.id].sort().join(':');
    const { record, task, depth } = await this.lock.runExclusive(`delegation:${pairKey}`, () =>
      this.checkAndCreate(delegator, delegatee, parent, request, title, description),
    );
    this.log.info(
      {
        delegation_id: record.id,
        delegator: delegator.name,
        delegatee: delegatee.name,
        original_task_id: parent.id,
        delegated_task_id: task.id,
        depth,
      },
      'communication.delegation.sent',
    );
    await this.announce(record, parent.project);
    return { record, task };
  }

  private async checkAndCreate(
    delegator: AgentEntity,
    delegatee: AgentEntity,
    parent: TaskEntity,
    request: DelegationRequest,
    title: string,
    description: string,
  ): Promise<DelegationResult & { depth: number }> {
    const now = new Date();
    const fingerprint = delegationFingerprint(title, description);
    const limits = this.loopLimits();
    const history = await this.records.pairSince(delegator.id, delegatee.id, loopHistorySince(now, limits));
    const verdict = checkDelegationLoop(
      {
        delegatorId: delegator.id,
        delegatorName: delegator.name,
        delegateeId: delegatee.id,
        delegateeName: delegatee.name,
        chain: parent.delegationChain,
        fingerprint,
      },
      history.map((r) => ({
        delegatorId: r.delegatorId,
        delegateeId: r.delegateeId,
        fingerprint: r.fingerprint,
        at: r.timestamp,
      })),
      limits,
      now,
    );
    if (!verdict.allowed) {
      this.refused(delegator, delegatee, parent.id, verdict.check, verdict.message);
      throw new DelegationRefusedError(verdict.check, verdict.code, verdict.message, verdict.retryAfterSeconds);
    }

    const task = await this.createSubtask(parent, delegator, delegatee, verdict.chain, request, title, description);
    const record: DelegationRecordEntity = {
      id: randomUUID(),
      delegatorId: delegator.id,
      delegatorName: delegator.name,
      delegateeId: delegatee.id,
      delegateeName: delegatee.name,
      originalTaskId: parent.id,
      delegatedTaskId: task.id,
      title,
      fingerprint,
      refinement: request.refinement?.trim() ?? '',
      timestamp: now,
    };
    await this.records.insert(record);
    return { record, task, depth: verdict.chain.length };
  }

  private async agentOrThrow(ref: string): Promise<AgentEntity> {
    const agent = await this.roster.findByRef(requireText('agent', ref));
    if (!agent) {
      throw new NotFoundError(`No agent "${ref}" on the roster`, ErrorCode.AgentNotFound);
    }
    return agent;
  }

  private async checkAuthority(delegator: AgentEntity, delegatee: AgentEntity): Promise<void> {
    const [agents, departments] = await Promise.all([this.roster.all(), this.company.departments()]);
    const org = agents.filter((a) => a.status !== 'terminated').map(toOrgAgent);
    const supervisors = supervisorsOf(org, departments.map(toOrgDepartment));
    const verdict = checkDelegationAuthority(toOrgAgent(delegator), toOrgAgent(delegatee), supervisors, this.policy());
    if (!verdict.allowed) {
      this.refused(delegator, delegatee, null, 'authority', verdict.message);
      throw new DelegationRefusedError('authority', verdict.code, verdict.message);
    }
  }

  private async createSubtask(
    parent: TaskEntity,
    delegator: AgentEntity,
    delegatee: AgentEntity,
    chain: string[],
    request: DelegationRequest,
    title: string,
    description: string,
  ): Promise<TaskEntity> {
    const row = newTaskRow({
      title,
      description: subtaskDescription(description, request.refinement, request.constraints),
      type: parent.type,
      priority: request.priority ?? parent.priority,
      project: parent.project,
      createdBy: delegator.name,
      deadline: parent.deadline,
      parentTaskId: parent.id,
      delegationChain: chain,
    });
    await this.lifecycle.create(row, delegator.name);
    return this.lifecycle.transition(row.id, 'assigned', {
      by: delegator.name,
      current: row,
      changes: () => ({ assignedTo: delegatee.name, assigneeId: delegatee.id }),
    });
  }

  // The direct channel of the two agents carries the hand-over; a failed post never undoes it.
  private async announce(record: DelegationRecordEntity, projectId: string): Promise<void> {
    try {
      await this.posting.post({
        from: record.delegatorName,
        toAgent: record.delegateeName,
        type: 'delegation',
        content: `Delegated task ${record.delegatedTaskId} to you: ${record.title}`,
        metadata: {
          taskId: record.delegatedTaskId,
          projectId,
          extra: [
            ['delegation_id', record.id],
            ['original_task_id', record.originalTaskId],
          ],
        },
      });
    } catch (error) {
      this.log.warn({ delegation_id: record.id, err: error }, 'communication.delegation.message_failed');
    }
  }

  private refused(
    delegator: AgentEntity,
    delegatee: AgentEntity,
    taskId: string | null,
    check: string,
    reason: string,
  ): void {
    this.log.warn(
      { delegator: delegator.name, delegatee: delegatee.name, task_id: taskId, check, reason },
      'communication.delegation.refused',
    );
  }

  private policy(): HierarchyPolicy {
    return {
      enforceChainOfCommand: this.settings.value<boolean>('coordination', 'enforce_chain_of_command'),
      allowSkipLevel: this.settings.value<boolean>('coordination', 'allow_skip_level'),
    };
  }

  private loopLimits(): LoopPreventionConfig {
    const v = (key: string) => this.settings.value<number>('coordination', key);
    return {
      maxDelegationDepth: v('max_delegation_depth'),
      dedupWindowSeconds: v('dedup_window_seconds'),
      maxPerPairPerMinute: v('max_per_pair_per_minute'),
      burstAllowance: v('burst_allowance'),
      bounceThreshold: v('bounce_threshold'),
      cooldownSeconds: v('cooldown_seconds'),
    };
  }
}

/** The delegated work's description: the request's, then the refinement and the constraints. */
export function subtaskDescription(description: string, refinement?: string, constraints?: readonly string[]): string {
  const parts = [description];
  if (refinement?.trim()) {
    parts.push(`Refinement: ${refinement.trim()}`);
  }
  const listed = (constraints ?? []).map((c) => c.trim()).filter((c) => c.length > 0);
  if (listed.length > 0) {
    parts.push(`Constraints:\n${listed.map((c) => `- ${c}`).join('\n')}`);
  }
  return parts.join('\n\n');
}
