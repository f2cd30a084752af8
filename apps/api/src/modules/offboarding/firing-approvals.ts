import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  APPROVAL_LIMITS,
  Channel,
  ConflictError,
  ErrorCode,
  FIRING_REASONS,
  ForbiddenError,
  HumanRole,
} from '@app/domain';
import type { AgentEntity } from '@app/persistence';
import {
  type ActorContext,
  DistributedLock,
  EventBus,
  LOGGING_RUNTIME,
  type LoggingRuntime,
  StartupResumeHooks,
  subscribeTo,
} from '@app/platform';

import { AgentConfigDto, AgentRoster } from '../agents';
import { type ApprovalResponseDto, ApprovalsService } from '../approvals';
import { AuditTrail } from '../audit';
import type { FireAgentDto } from './dto/offboarding.dto';
import { alreadyFired, OffboardingService } from './offboarding.service';

/** The metadata kind of a firing's `org:fire` item. */
const FIRING_KIND = 'firing';
/** `details` goes into the item's metadata in pieces of at most this many characters (lossless). */
const DETAILS_PIECE = APPROVAL_LIMITS.metadataText;
/** Approved or pending `org:fire` items read at most (pending check, startup). */
const ITEMS_READ = 200;

/** A decided item as the approvals channel reports it. */
interface DecidedFiring {
  id: string;
  status: string;
  decidedBy: string | null;
}

/**
 * Firing through the approvals queue (a person asks, a second person decides): the request files an
 * `org:fire` item; a person's approval of it (by someone other than the one who asked) fires the
 * agent and runs its offboarding on the replica that stored the decision (the record's unique agent
 * id would let only one fire it anyway). At startup, approved items whose firing a crash left
 * unbegun are begun. Also the CEO's release of a former agent's name.
 */
@Injectable()
export class FiringApprovals implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  private readonly offs: Array<() => void> = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly offboarding: OffboardingService,
    private readonly approvals: ApprovalsService,
    private readonly roster: AgentRoster,
    private readonly audit: AuditTrail,
    private readonly lock: DistributedLock,
    private readonly bus: EventBus,
    private readonly hooks: StartupResumeHooks,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.offboarding');
  }

  onModuleInit(): void {
    this.offs.push(this.hooks.register({ name: 'offboarding.approved_firings', run: () => this.beginApproved() }));
    this.offs.push(
      subscribeTo(this.bus, Channel.Approvals, (event) => {
        // The replica that stored the decision acts on it (a crash before it did: the startup hook).
        if (event.origin !== 'local' || event.event_type !== 'approval.decided') {
          return;
        }
        const item = event.payload.approval as {
          id: string;
          action_type?: unknown;
          status?: unknown;
          decided_by?: unknown;
        };
        if (item.action_type !== 'org:fire' || item.status !== 'approved') {
          return;
        }
        this.track(
          this.decided({
            id: item.id,
            status: 'approved',
            decidedBy: typeof item.decided_by === 'string' ? item.decided_by : null,
          }),
        );
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.offs.splice(0).forEach((off) => off());
    await Promise.allSettled([...this.pending]);
  }

  /** Waits for the firings started by decisions heard so far (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
  }

  /**
   * `POST /agents/{agent_name}/fire-request`: files an `org:fire` item for a second person.
   * @throws NotFoundError 3013; ForbiddenError 1001 (a manager of another department);
   * ConflictError 4099 (fired already or terminated), 4075 (a request already waits).
   */
  async request(actor: ActorContext, name: string, dto: FireAgentDto): Promise<ApprovalResponseDto> {
    const agent = await this.offboarding.agentOrThrow(name);
    if (actor.role === HumanRole.Manager && actor.department !== agent.department) {
      throw new ForbiddenError(
        `Managers may only ask to fire agents of their own department; ${agent.name} is not in it`,
      );
    }
    return this.lock.runExclusive(`offboarding.fire_request:${agent.id}`, async () => {
      if (agent.status === 'terminated' || (await this.offboarding.wasFired(agent.id))) {
        throw alreadyFired(agent);
      }
      const waiting = (await this.firingItems('pending')).find((item) => item.metadata.agent_id === agent.id);
      if (waiting) {
        throw new ConflictError(
          `A request to fire ${agent.name} already waits for a decision (approval ${waiting.id})`,
          ErrorCode.FireRequestPending,
        );
      }
      const details = (dto.details ?? '').trim();
      const pieces: Record<string, string> = {};
      for (let i = 0; i * DETAILS_PIECE < details.length; i += 1) {
        pieces[`details_${i}`] = details.slice(i * DETAILS_PIECE, (i + 1) * DETAILS_PIECE);
      }
      const item = await this.approvals.fileRequest({
        actionType: 'org:fire',
        title: `Fire ${agent.name} (${dto.reason})`,
        description: `${actor.username} asks to fire ${agent.name} (${agent.role}, ${agent.department}): ${dto.reason}${details ? `: ${details}` : ''}. Approving fires and offboards the agent.`,
        requestedBy: actor.username,
        riskLevel: 'critical',
        department: agent.department,
        metadata: {
          kind: FIRING_KIND,
          agent_id: agent.id,
          agent_name: agent.name.slice(0, DETAILS_PIECE),
          reason: dto.reason,
          ...pieces,
        },
      });
      this.log.info(
        { agent_id: agent.id, approval_id: item.id, requested_by: actor.username },
        'hr.agent.fire_requested',
      );
      return item;
    });
  }

  /**
   * A person's approval of a firing item fires the agent (the record's unique agent id lets one
   * replica, and one decision, do it) and runs the offboarding. An approval by the person who asked,
   * or by the timeout policy (`system`), fires nobody: it is audited as denied (not again when the
   * startup hook reads the item: `audited` false).
   */
  async decided(item: DecidedFiring, audited = true): Promise<void> {
    const row = await this.approvals.get(item.id).catch(() => null);
    if (row === null || row.action_type !== 'org:fire' || row.metadata.kind !== FIRING_KIND) {
      return;
    }
    const agent = await this.roster.findByRef(row.metadata.agent_id ?? '');
    if (agent === null || agent.status === 'terminated' || (await this.offboarding.wasFired(agent.id))) {
      return;
    }
    const reason = row.metadata.reason ?? '';
    const decidedBy = item.decidedBy ?? 'system';
    const why =
      decidedBy === 'system'
        ? 'approved without a person (timeout policy)'
        : decidedBy === row.requested_by
          ? 'approved by the person who asked: a second person must decide'
          : !(FIRING_REASONS as readonly string[]).includes(reason)
            ? `unknown firing reason "${reason.slice(0, 40)}"`
            : null;
    if (why !== null) {
      if (audited) {
        await this.denied(agent, row, decidedBy, why);
      }
      return;
    }
    const details = Object.keys(row.metadata)
      .filter((key) => /^details_\d+$/.test(key))
      .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)))
      .map((key) => row.metadata[key])
      .join('');
    const record = await this.offboarding.start(
      agent,
      row.requested_by,
      { reason, details },
      { approval_id: row.id, approved_by: decidedBy },
      decidedBy,
    );
    if (record !== null) {
      await this.offboarding.run(record.id);
    }
  }

  /** Startup: approved firing items whose agent was not fired (a crash between the decision and the record). */
  async beginApproved(): Promise<void> {
    for (const item of await this.firingItems('approved')) {
      await this.decided({ id: item.id, status: item.status, decidedBy: item.decided_by }, false).catch(
        (error: unknown) => {
          this.log.error({ err: error, approval_id: item.id }, 'hr.offboarding.approved_firing_failed');
        },
      );
    }
  }

  /**
   * `POST /agents/{agent_name}/release-name` (the CEO): a terminated agent's name may be given again.
   * @throws NotFoundError 3013; ConflictError 4073 (not terminated), 4074 (released already).
   */
  async releaseName(actor: ActorContext, name: string): Promise<AgentConfigDto> {
    const agent = await this.offboarding.agentOrThrow(name);
    if (agent.status !== 'terminated') {
      throw new ConflictError(
        `${agent.name} is ${agent.status}: only a terminated agent's name can be released`,
        ErrorCode.AgentNameNotReleasable,
      );
    }
    if (this.roster.nameReleased(agent) || !(await this.roster.releaseName(agent, actor.username))) {
      throw new ConflictError(`${agent.name}'s name was released already`, ErrorCode.AgentNameAlreadyReleased);
    }
    await this.audit.record({
      actor: actor.username,
      action: 'agent.name_released',
      target: `agent:${agent.id}`,
      outcome: 'success',
      details: { agent_id: agent.id, name: agent.name },
    });
    const now = (await this.roster.findByRef(agent.id)) ?? agent;
    return this.roster.render(now);
  }

  private async denied(agent: AgentEntity, row: ApprovalResponseDto, decidedBy: string, why: string): Promise<void> {
    await this.audit.record({
      actor: decidedBy,
      action: 'agent.fired',
      target: `agent:${agent.name}`,
      outcome: 'denied',
      details: { approval_id: row.id, requested_by: row.requested_by, why },
    });
    this.log.warn({ agent_id: agent.id, approval_id: row.id, why }, 'hr.agent.fire_approval_refused');
  }

  private async firingItems(status: 'pending' | 'approved'): Promise<ApprovalResponseDto[]> {
    const query = { status, action_type: 'org:fire', offset: 0, limit: ITEMS_READ };
    const page = await this.approvals.list(query, query);
    return page.items.filter((item) => item.metadata.kind === FIRING_KIND);
  }

  private track(work: Promise<void>): void {
    const run = work.catch((error: unknown) => {
      this.log.error({ err: error }, 'hr.offboarding.approved_firing_failed');
    });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }
}
