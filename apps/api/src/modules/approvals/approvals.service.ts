import { randomUUID } from 'node:crypto';

import { Injectable } from '@nestjs/common';

import {
  APPROVAL_LIMITS,
  ConflictError,
  ErrorCode,
  type EscalatedCall,
  ForbiddenError,
  mayDecide,
  NotFoundError,
  Page,
  type PageRequest,
  planTimeout,
  type RiskLevel,
  ValidationError,
} from '@app/domain';
import type { ApprovalItemEntity } from '@app/persistence';
import type { ActorContext } from '@app/platform';

import { AgentRoster } from '../agents';
import { TaskLifecycle } from '../tasks';
import type {
  ApprovalQueryDto,
  ApprovalResponseDto,
  ApproveDto,
  CreateApprovalDto,
  RejectDto,
} from './dto/approval-item.dto';
import { rowToApproval, toApproval } from './approvals.mapper';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalOutcomes } from './approval-outcomes';
import { ApprovalPolicy } from './approval-policy';

/** Risk of an escalated tool call the check did not grade: unknown actions are HIGH (spec). */
const ESCALATION_RISK: RiskLevel = 'high';

/** An item another module files for a person to decide (a trust promotion, for instance). */
export interface ApprovalRequest {
  /** The item's id when the caller needs it before filing (to claim its own state first). */
  id?: string;
  actionType: string;
  title: string;
  description: string;
  /** The agent id the request is about, or `system`. */
  requestedBy: string;
  riskLevel: RiskLevel;
  department: string | null;
  metadata: Record<string, string>;
}

/** The human approval queue: each public method is a use case and answers with response DTOs. */
@Injectable()
export class ApprovalsService {
  constructor(
    private readonly approvals: ApprovalsRepository,
    private readonly outcomes: ApprovalOutcomes,
    private readonly policy: ApprovalPolicy,
    private readonly tasks: TaskLifecycle,
    private readonly agents: AgentRoster,
  ) {}

  /** One page of items matching the filters, oldest first. */
  async list(query: ApprovalQueryDto, page: PageRequest): Promise<Page<ApprovalResponseDto>> {
    const filter = { status: query.status, riskLevel: query.risk_level, actionType: query.action_type };
    const { rows, total } = await this.approvals.page(filter, page);
    const now = new Date();
    return new Page(
      rows.map((row) => rowToApproval(row, now)),
      total,
      page.offset,
      page.limit,
    );
  }

  async get(id: string): Promise<ApprovalResponseDto> {
    return toApproval(await this.findOrThrow(id));
  }

  /** Files an item by hand; its deadline is the TTL given, else the timeout policy's. */
  async create(actor: ActorContext, dto: CreateApprovalDto): Promise<ApprovalResponseDto> {
    const metadata = checkedMetadata(dto.metadata ?? {});
    const row = this.newItem({
      id: randomUUID(),
      actionType: dto.action_type,
      title: dto.title,
      description: dto.description,
      requestedBy: actor.username,
      riskLevel: dto.risk_level,
      taskId: dto.task_id ?? null,
      department: await this.departmentOf(dto.task_id ?? null),
      metadata,
      ttlSeconds: dto.ttl_seconds ?? null,
    });
    await this.approvals.insert(row);
    await this.outcomes.created(row);
    return toApproval(row);
  }

  /** Files a module's request (no TTL of its own: the timeout policy's deadline applies). */
  async fileRequest(request: ApprovalRequest): Promise<ApprovalResponseDto> {
    const row = this.newItem({
      id: request.id ?? randomUUID(),
      actionType: request.actionType.slice(0, APPROVAL_LIMITS.actionType),
      title: request.title.slice(0, APPROVAL_LIMITS.title),
      description: request.description.slice(0, APPROVAL_LIMITS.description),
      requestedBy: request.requestedBy,
      riskLevel: request.riskLevel,
      taskId: null,
      department: request.department,
      metadata: checkedMetadata(request.metadata),
      ttlSeconds: null,
    });
    await this.approvals.insert(row);
    await this.outcomes.created(row);
    return toApproval(row);
  }

  /** The engine's approval gate: an escalated tool call becomes a pending item its run waits on. */
  async fileEscalation(call: EscalatedCall): Promise<void> {
    const args = JSON.stringify(call.arguments);
    const row = this.newItem({
      id: call.approvalId,
      actionType: (call.actionType ?? `tool:${call.tool.toLowerCase().replace(/[^a-z0-9_-]/g, '_')}`).slice(
        0,
        APPROVAL_LIMITS.actionType,
      ),
      title: `${call.agentName} asks to run ${call.tool}`.slice(0, APPROVAL_LIMITS.title),
      description: `${call.reason}\n\narguments: ${args}`.slice(0, APPROVAL_LIMITS.description),
      requestedBy: call.agentId,
      riskLevel: call.riskLevel ?? ESCALATION_RISK,
      taskId: call.taskId,
      department: call.department,
      metadata: {
        tool_name: call.tool.slice(0, APPROVAL_LIMITS.metadataText),
        agent_name: call.agentName.slice(0, 256),
      },
      ttlSeconds: null,
    });
    await this.approvals.insert(row);
    await this.outcomes.created(row);
  }

  approve(actor: ActorContext, id: string, dto: ApproveDto): Promise<ApprovalResponseDto> {
    return this.decide(actor, id, 'approved', dto.comment ?? null);
  }

  reject(actor: ActorContext, id: string, dto: RejectDto): Promise<ApprovalResponseDto> {
    return this.decide(actor, id, 'rejected', dto.reason);
  }

  /**
   * A compare-and-set from pending: of two concurrent decisions exactly one applies, the other gets
   * 409 with the code of what the item became. An item past a deadline that denies it is expired
   * first, even when the timeout sweep has not reached it yet.
   */
  private async decide(
    actor: ActorContext,
    id: string,
    status: 'approved' | 'rejected',
    reason: string | null,
  ): Promise<ApprovalResponseDto> {
    const row = await this.findOrThrow(id);
    if (!mayDecide(actor, row)) {
      throw new ForbiddenError('Only the CEO, a Board Member or the manager of its department may decide this item');
    }
    const now = new Date();
    assertPending(row);
    if (row.onTimeout === 'deny' && row.expiresAt !== null && row.expiresAt <= now) {
      const expired = await this.approvals.changePending(row, {
        status: 'expired',
        decidedBy: 'system',
        decidedAt: now,
      });
      if (expired) {
        await this.outcomes.settled(expired);
      }
      throw new ConflictError(`Approval item "${id}" expired`, ErrorCode.ApprovalExpired);
    }
    const decided = await this.approvals.changePending(row, {
      status,
      decidedBy: actor.username,
      decisionReason: reason,
      decidedAt: now,
    });
    if (!decided) {
      assertPending(await this.findOrThrow(id));
      throw new ConflictError(`Approval item "${id}" changed meanwhile`, ErrorCode.ApprovalAlreadyDecided);
    }
    await this.outcomes.settled(decided);
    return toApproval(decided);
  }

  /** The department of the agent a task is assigned to: its manager may decide the task's items. */
  private async departmentOf(taskId: string | null): Promise<string | null> {
    const task = taskId ? await this.tasks.find(taskId) : null;
    const agent = task?.assigneeId ? await this.agents.findByRef(task.assigneeId) : null;
    return agent?.department ?? null;
  }

  private async findOrThrow(id: string): Promise<ApprovalItemEntity> {
    const row = await this.approvals.findById(id);
    if (!row) {
      throw new NotFoundError(`Approval item "${id}" not found`, ErrorCode.ApprovalNotFound);
    }
    return row;
  }

  private newItem(input: {
    id: string;
    actionType: string;
    title: string;
    description: string;
    requestedBy: string;
    riskLevel: RiskLevel;
    taskId: string | null;
    department: string | null;
    metadata: Record<string, string>;
    ttlSeconds: number | null;
  }): ApprovalItemEntity {
    const now = new Date();
    const plan = planTimeout(this.policy.timeouts(), input, now);
    return {
      id: input.id,
      actionType: input.actionType,
      title: input.title,
      description: input.description,
      requestedBy: input.requestedBy,
      riskLevel: input.riskLevel,
      status: 'pending',
      taskId: input.taskId,
      department: input.department,
      metadata: input.metadata,
      decidedBy: null,
      decisionReason: null,
      onTimeout: plan.onTimeout,
      escalationStep: plan.step,
      assignedRole: plan.role,
      version: 1,
      createdAt: now,
      decidedAt: null,
      expiresAt: plan.expiresAt,
    };
  }
}

/** 409 with the code of what the item became: decided (4006) or expired (4023). */
function assertPending(row: ApprovalItemEntity): void {
  if (row.status === 'expired') {
    throw new ConflictError(`Approval item "${row.id}" expired`, ErrorCode.ApprovalExpired);
  }
  if (row.status !== 'pending') {
    throw new ConflictError(`Approval item "${row.id}" is already ${row.status}`, ErrorCode.ApprovalAlreadyDecided);
  }
}

/** At most 20 keys; keys and values are strings of at most 256 characters. */
function checkedMetadata(metadata: Record<string, unknown>): Record<string, string> {
  const entries = Object.entries(metadata);
  const limit = APPROVAL_LIMITS.metadataText;
  if (entries.length > APPROVAL_LIMITS.metadataKeys) {
    throw new ValidationError(
      `metadata has ${entries.length} keys; at most ${APPROVAL_LIMITS.metadataKeys} are allowed`,
      ErrorCode.ApprovalMetadataInvalid,
    );
  }
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > limit || typeof value !== 'string' || value.length > limit) {
      throw new ValidationError(
        `metadata.${key.slice(0, 40)}: keys and values must be strings of 1 to ${limit} characters`,
        ErrorCode.ApprovalMetadataInvalid,
      );
    }
  }
  return metadata as Record<string, string>;
}
