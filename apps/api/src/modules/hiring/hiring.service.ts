import { randomUUID } from 'node:crypto';

import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  assertSelectable,
  Channel,
  ConflictError,
  ErrorCode,
  ForbiddenError,
  type HiringStatus,
  HumanRole,
  nameKey,
  NotFoundError,
  Page,
  type PageRequest,
  ValidationError,
} from '@app/domain';
import type { HiringCandidateEntry, HiringRequestEntity } from '@app/persistence';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { ApprovalsService } from '../approvals';
import { AuditTrail } from '../audit';
import { CompanyFacade } from '../company';
import { SettingsSnapshot } from '../settings';
import { CandidateBuilder } from './candidate-builder';
import type { CreateHiringRequestDto, HiringRequestDto, HiringRequestQueryDto } from './dto/hiring.dto';
import { HiringBudget } from './hiring-budget';
import { toHiringRequest } from './hiring.mapper';
import { HiringRepository } from './hiring.repository';

/** Who files a request: a person (by the API) or an agent (through its `request_hire` tool). */
export type HiringFiler = { kind: 'person'; actor: ActorContext } | { kind: 'agent'; agentId: string; name: string };

/** A decided `org:hire` approval item as the approvals channel reports it. */
export interface DecidedHireApproval {
  id: string;
  status: string;
  decidedBy: string | null;
  reason: string | null;
}

/** Pending requests read per startup reconciliation at most. */
const RECONCILE_BATCH = 200;

/**
 * Hiring requests (engine.md §13): filing (candidates built, the decision taken by the filer's act or
 * left to an `org:hire` approval item), reads, the choice of a candidate, and the decisions of the
 * approval items. Instantiation is its own use case. The only writer of `hiring_requests`.
 */
@Injectable()
export class HiringService {
  private readonly log: Logger;

  constructor(
    private readonly requests: HiringRepository,
    private readonly candidates: CandidateBuilder,
    private readonly company: CompanyFacade,
    private readonly budget: HiringBudget,
    private readonly approvals: ApprovalsService,
    private readonly settings: SettingsSnapshot,
    private readonly audit: AuditTrail,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.hiring');
  }

  async list(query: HiringRequestQueryDto, page: PageRequest): Promise<Page<HiringRequestDto>> {
    const { rows, total } = await this.requests.page(query.status, page);
    return new Page(rows.map(toHiringRequest), total, page.offset, page.limit);
  }

  async get(id: string): Promise<HiringRequestDto> {
    return toHiringRequest(await this.findOrThrow(id));
  }

  async findOrThrow(id: string): Promise<HiringRequestEntity> {
    const row = await this.requests.findById(id);
    if (!row) {
      throw new NotFoundError(`Hiring request "${id}" not found`, ErrorCode.HiringRequestNotFound);
    }
    return row;
  }

  /**
   * Files a request. A person who may manage the department (the CEO; a manager for their own)
   * approves it by filing, unless `company.hiring_requires_second_approval` is on; a request an
   * agent files always waits for a person. A waiting request gets an `org:hire` approval item.
   */
  async file(filer: HiringFiler, dto: CreateHiringRequestDto): Promise<HiringRequestDto> {
    const spec = await this.checked(filer, dto);
    await this.budget.assertFits(spec.department, dto.budget_limit_monthly ?? null);
    const candidates = await this.candidates.build({
      department: spec.department,
      role: spec.role,
      level: dto.level,
      skills: spec.skills,
      template: spec.template,
    });
    const requestedBy = filer.kind === 'person' ? filer.actor.username : `agent:${filer.name}`;
    const byFiling =
      filer.kind === 'person' && !this.settings.value<boolean>('company', 'hiring_requires_second_approval');
    const now = new Date();
    const row: HiringRequestEntity = {
      id: randomUUID(),
      requestedBy,
      department: spec.department,
      role: spec.role,
      level: dto.level,
      requiredSkills: spec.skills,
      reason: spec.reason,
      budgetLimitMonthly: dto.budget_limit_monthly ?? null,
      templateName: spec.template,
      status: byFiling ? 'approved' : 'pending',
      candidates,
      selectedCandidateId: candidates[0].id,
      approvalId: byFiling ? null : randomUUID(),
      decidedBy: byFiling ? requestedBy : null,
      decisionReason: byFiling ? 'approved by the filing of a person who manages the department' : null,
      agentId: null,
      version: 1,
      createdAt: now,
      updatedAt: now,
    };
    if (row.approvalId !== null) {
      await this.fileApproval(row, filer);
    }
    await this.requests.insert(row);
    this.log.info({ hiring_request_id: row.id, status: row.status, requested_by: requestedBy }, 'hr.hiring.requested');
    await this.audit.record({
      actor: requestedBy,
      action: 'hiring.requested',
      target: `hiring_request:${row.id}`,
      outcome: 'success',
      details: {
        department: row.department,
        role: row.role,
        level: row.level,
        status: row.status,
        approval_id: row.approvalId,
      },
    });
    await this.announce(row, requestedBy);
    return toHiringRequest(row);
  }

  /** Chooses the candidate to instantiate (pending or approved requests). */
  async select(actor: ActorContext, id: string, candidateId: string): Promise<HiringRequestDto> {
    const row = await this.findOrThrow(id);
    assertManages(actor, row.department);
    assertSelectable(row.id, row.status as HiringStatus);
    if (!row.candidates.some((c) => c.id === candidateId)) {
      throw new ValidationError(
        `Candidate "${candidateId}" is not one of hiring request ${row.id}'s candidates`,
        ErrorCode.HiringCandidateUnknown,
      );
    }
    if (row.selectedCandidateId === candidateId) {
      return toHiringRequest(row);
    }
    const updated = await this.requests.update(row, { selectedCandidateId: candidateId });
    if (!updated) {
      throw new ConflictError(`Hiring request "${id}" changed meanwhile; read it again`, ErrorCode.VersionConflict);
    }
    await this.announce(updated, actor.username);
    return toHiringRequest(updated);
  }

  /**
   * An `org:hire` item decided or expired: its pending request becomes approved (a person approved
   * it, and not the person who filed it: the second approval is someone else's) or rejected. One
   * replica applies it (a compare-and-set).
   */
  async decided(approval: DecidedHireApproval): Promise<void> {
    const row = await this.requests.findByApproval(approval.id);
    if (!row || row.status !== 'pending') {
      return;
    }
    const person = approval.decidedBy !== null && approval.decidedBy !== 'system';
    const approved = approval.status === 'approved' && person && approval.decidedBy !== row.requestedBy;
    const reason = approved
      ? approval.reason
      : approval.status === 'approved' && person
        ? 'approved by the person who filed it; the second approval must come from someone else'
        : `approval ${approval.id} ${approval.status}${approval.reason ? `: ${approval.reason}` : ''}`;
    const updated = await this.requests.update(row, {
      status: approved ? 'approved' : 'rejected',
      decidedBy: approval.decidedBy ?? 'system',
      decisionReason: reason,
    });
    if (!updated) {
      return;
    }
    this.log.info({ hiring_request_id: row.id, status: updated.status }, 'hr.hiring.decided');
    await this.audit.record({
      actor: approval.decidedBy ?? 'system',
      action: 'hiring.decided',
      target: `hiring_request:${row.id}`,
      outcome: approved ? 'success' : 'denied',
      details: { status: updated.status, approval_id: approval.id, reason },
    });
    await this.announce(updated, approval.decidedBy ?? 'system');
  }

  /** At startup: pending requests whose item was decided while no replica listened. */
  async reconcile(): Promise<void> {
    for (const row of await this.requests.pendingWithApproval(RECONCILE_BATCH)) {
      const item = await this.approvals.get(row.approvalId as string).catch(() => null);
      if (item && item.status !== 'pending') {
        await this.decided({
          id: item.id,
          status: item.status,
          decidedBy: item.decided_by ?? null,
          reason: item.decision_reason ?? null,
        });
      }
    }
  }

  async announce(row: HiringRequestEntity, by: string): Promise<void> {
    await announce(this.bus, this.log, {
      channel: Channel.Agents,
      event_type: 'hiring.request_changed',
      payload: { request: toHiringRequest(row), status: row.status, requested_by: by },
    });
  }

  private async checked(
    filer: HiringFiler,
    dto: CreateHiringRequestDto,
  ): Promise<{ department: string; role: string; reason: string; skills: string[]; template: string | null }> {
    const role = dto.role.trim();
    const reason = dto.reason.trim();
    const skills = dto.required_skills.map((skill) => skill.trim());
    if (!role || !reason || skills.some((skill) => skill.length === 0)) {
      throw new ValidationError('role, reason and each required skill must not be blank', ErrorCode.HiringRequestBlank);
    }
    const department = await this.company.findDepartment(nameKey(dto.department));
    if (!department) {
      throw new ValidationError(
        `Department "${dto.department}" is not one of the company's (GET /api/v1/departments)`,
        ErrorCode.HiringDepartmentUnknown,
      );
    }
    if (filer.kind === 'person') {
      assertManages(filer.actor, department.name);
    }
    return {
      department: department.name,
      role,
      reason,
      skills: [...new Set(skills)],
      template: await this.template(dto),
    };
  }

  /** The request's template (it must exist), else the company's when it still exists. */
  private async template(dto: CreateHiringRequestDto): Promise<string | null> {
    if (dto.template_name !== undefined && dto.template_name !== null) {
      const name = dto.template_name.trim().toLowerCase();
      if (!this.candidates.hasTemplate(name)) {
        throw new ValidationError(
          `Template "${dto.template_name}" not found; GET /api/v1/setup/templates lists them`,
          ErrorCode.HiringTemplateUnknown,
        );
      }
      return name;
    }
    const company = await this.company.find();
    const name = company?.templateName ?? null;
    return name !== null && this.candidates.hasTemplate(name) ? name : null;
  }

  private async fileApproval(row: HiringRequestEntity, filer: HiringFiler): Promise<void> {
    const first = row.candidates.find((c) => c.id === row.selectedCandidateId) as HiringCandidateEntry;
    const list = row.candidates
      .map(
        (c) =>
          `- ${c.name}: ${c.modelProvider}/${c.modelId}, ${c.personalityPreset}, about ${c.estimatedMonthlyCost} a month`,
      )
      .join('\n');
    await this.approvals.fileRequest({
      id: row.approvalId as string,
      actionType: 'org:hire',
      title: `Hire ${first.name} as ${row.role} (${row.level}) in ${row.department}`,
      description: `${row.requestedBy} asks to hire a ${row.level} ${row.role}: ${row.reason}\n\nCandidates:\n${list}`,
      requestedBy: filer.kind === 'person' ? filer.actor.username : filer.agentId,
      riskLevel: 'medium',
      department: row.department,
      metadata: {
        kind: 'hiring_request',
        hiring_request_id: row.id,
        candidate_id: first.id,
        candidate_name: first.name.slice(0, 256),
        role: row.role,
        level: row.level,
        department: row.department,
        model: `${first.modelProvider}/${first.modelId}`.slice(0, 256),
        estimated_monthly_cost: String(first.estimatedMonthlyCost),
        budget_limit_monthly: row.budgetLimitMonthly === null ? '' : String(row.budgetLimitMonthly),
      },
    });
  }
}

/** The CEO manages every department; a manager only their own (403, 1980). */
export function assertManages(actor: ActorContext, department: string): void {
  if (actor.role !== HumanRole.Manager) {
    return;
  }
  if (actor.department === null || actor.department !== department) {
    throw new ForbiddenError(
      `Managers hire only into the department they manage; this request is for ${department}`,
      ErrorCode.HiringOutsideManagedDepartment,
    );
  }
}
