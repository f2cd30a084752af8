import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  Channel,
  computeDepartmentHealth,
  ConflictError,
  DEFAULT_CURRENCY,
  ErrorCode,
  ForbiddenError,
  HumanRole,
  nameKey,
  normalizeCeremonyPolicy,
  NotFoundError,
  Page,
  type PageRequest,
} from '@app/domain';
import type { DepartmentEntity } from '@app/persistence';
import { type ActorContext, announce, EventBus, LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { AgentRoster } from '../agents';
import { RunLedger } from '../run-ledger';
import { toCompany, toDepartment, toDepartmentFromRow } from './company.mapper';
import { CompanyRepository } from './company.repository';
import type { CompanyDto, DepartmentDto, DepartmentHealthDto } from './dto/company.dto';

const DAY_MS = 24 * 3_600_000;
const CAS_ATTEMPTS = 3;

/** The company, its departments, department health and ceremony policies. */
@Injectable()
export class CompanyService {
  private readonly log: Logger;

  constructor(
    private readonly company: CompanyRepository,
    private readonly agents: AgentRoster,
    private readonly ledger: RunLedger,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('company');
  }

  async get(): Promise<CompanyDto> {
    const company = await this.company.findCompany();
    if (!company) {
      throw new NotFoundError(
        'No company has been created yet: run the setup wizard (POST /api/v1/setup/company)',
        ErrorCode.CompanyNotFound,
      );
    }
    const [departments, agents] = await Promise.all([this.departments(), this.agents.configs()]);
    return toCompany(company, departments, agents);
  }

  async departments(): Promise<DepartmentDto[]> {
    const [rows, counts] = await Promise.all([this.company.allDepartments(), this.agents.countByDepartment()]);
    return rows.map((row) => toDepartment(row, counts.get(row.nameKey) ?? 0));
  }

  async pageDepartments(page: PageRequest): Promise<Page<DepartmentDto>> {
    const [{ items, total }, counts] = await Promise.all([
      this.company.pageDepartments(page),
      this.agents.countByDepartment(),
    ]);
    return new Page(
      items.map((row) => toDepartmentFromRow(row, counts.get(row.name_key as string) ?? 0)),
      total,
      page.offset,
      page.limit,
    );
  }

  async department(name: string): Promise<DepartmentDto> {
    const row = await this.findDepartment(name);
    const counts = await this.agents.countByDepartment(row.nameKey);
    return toDepartment(row, counts.get(row.nameKey) ?? 0);
  }

  /** A department's own autonomy level, null when it sets none or does not exist: one row read. */
  async departmentAutonomy(name: string): Promise<string | null> {
    const row = await this.company.findDepartment(nameKey(name));
    return row?.autonomyLevel ?? null;
  }

  async health(name: string): Promise<DepartmentHealthDto> {
    const row = await this.findDepartment(name);
    const members = await this.agents.findByDepartment(row.nameKey);
    const ids = members.map((a) => a.id);
    const now = new Date();
    const company = await this.company.findCompany().catch(() => null);
    const base = {
      departmentName: row.name,
      agentCount: members.length,
      activeAgentCount: members.filter((a) => a.status === 'active').length,
      currency: company?.currency ?? DEFAULT_CURRENCY,
      now,
    };
    if (ids.length === 0) {
      return computeDepartmentHealth({ ...base, metrics: [], costs: [] });
    }
    try {
      const [metrics, costs] = await Promise.all([
        this.ledger.metricsSince(new Date(now.getTime() - 30 * DAY_MS), ids, null),
        this.ledger.costsSince(new Date(now.getTime() - 7 * DAY_MS), ids, null),
      ]);
      return computeDepartmentHealth({ ...base, metrics, costs });
    } catch (error) {
      // Health stays answerable: the counts are known, the figures are reported as degraded.
      this.log.warn({ err: error, department: row.name }, 'company.department.health_degraded');
      return computeDepartmentHealth({ ...base, metrics: [], costs: [], degraded: true });
    }
  }

  async ceremonyPolicy(name: string): Promise<{ policy: Record<string, unknown> | null; etag: string }> {
    const row = await this.findDepartment(name);
    return { policy: row.ceremonyPolicy, etag: etagOf(row) };
  }

  async setCeremonyPolicy(
    actor: ActorContext,
    name: string,
    body: unknown,
    ifMatch: string | undefined,
  ): Promise<{ policy: Record<string, unknown>; etag: string }> {
    const policy = normalizeCeremonyPolicy(body);
    const row = await this.writeCeremonyPolicy(actor, name, policy, ifMatch);
    return { policy, etag: etagOf(row) };
  }

  async clearCeremonyPolicy(actor: ActorContext, name: string, ifMatch: string | undefined): Promise<void> {
    await this.writeCeremonyPolicy(actor, name, null, ifMatch);
  }

  /** Compare-and-set with a few retries; with If-Match the caller's version must still be current. */
  private async writeCeremonyPolicy(
    actor: ActorContext,
    name: string,
    policy: Record<string, unknown> | null,
    ifMatch: string | undefined,
  ): Promise<DepartmentEntity> {
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
      const row = await this.findDepartment(name);
      this.assertDepartmentAuthority(actor, row);
      if (ifMatch !== undefined && ifMatch.trim() !== '*' && ifMatch !== etagOf(row)) {
        throw new ConflictError(
          `The ceremony policy of "${row.name}" changed since it was read (If-Match ${ifMatch}, current ${etagOf(row)})`,
          ErrorCode.VersionConflict,
        );
      }
      if (await this.company.setCeremonyPolicy(row.id, row.version, policy)) {
        const updated = { ...row, ceremonyPolicy: policy, version: row.version + 1 };
        this.log.info(
          { actor: actor.username, department: row.name, cleared: policy === null },
          'company.ceremony_policy.updated',
        );
        await announce(this.bus, this.log, {
          channel: Channel.Departments,
          event_type: 'department.updated',
          payload: { name: row.name, ceremony_policy: policy },
        });
        return updated;
      }
      if (ifMatch !== undefined && ifMatch.trim() !== '*') {
        break;
      }
    }
    throw new ConflictError(
      `The ceremony policy of "${name}" is being changed concurrently; read it again and retry`,
      ErrorCode.VersionConflict,
    );
  }

  /** Managers act only inside their own department; the CEO everywhere. */
  private assertDepartmentAuthority(actor: ActorContext, row: DepartmentEntity): void {
    if (actor.role === HumanRole.Manager && actor.department !== row.nameKey) {
      throw new ForbiddenError(`Managers may only change their own department; "${row.name}" is not yours`);
    }
  }

  private async findDepartment(name: string): Promise<DepartmentEntity> {
    const row = await this.company.findDepartment(nameKey(name));
    if (!row) {
      throw new NotFoundError(`Department "${name}" not found`, ErrorCode.DepartmentNotFound);
    }
    return row;
  }
}

function etagOf(row: DepartmentEntity): string {
  return `"dept-${row.id.slice(0, 8)}-v${row.version}"`;
}
