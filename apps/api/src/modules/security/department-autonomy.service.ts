import { Injectable } from '@nestjs/common';

import { AUTONOMY_LEVELS, type AutonomyLevel, ErrorCode, ForbiddenError, HumanRole, NotFoundError } from '@app/domain';
import type { DepartmentEntity } from '@app/persistence';
import type { ActorContext } from '@app/platform';

import { CompanyFacade } from '../company';
import { SettingsSnapshot } from '../settings';
import type { DepartmentAutonomyDto, UpdateDepartmentAutonomyDto } from './dto/autonomy.dto';
import { SecurityAudit } from './security-audit';

function asLevel(value: unknown): AutonomyLevel | null {
  return typeof value === 'string' && (AUTONOMY_LEVELS as readonly string[]).includes(value)
    ? (value as AutonomyLevel)
    : null;
}

/**
 * Autonomy on the department resource: read it, and set it through an audited write by a person
 * (managers: their own department). Agents without a level of their own inherit it.
 */
@Injectable()
export class DepartmentAutonomyService {
  constructor(
    private readonly company: CompanyFacade,
    private readonly settings: SettingsSnapshot,
    private readonly audit: SecurityAudit,
  ) {}

  /** @throws NotFoundError (3xxx, department) for an unknown department. */
  async get(name: string): Promise<DepartmentAutonomyDto> {
    return this.toDto(await this.findOrThrow(name));
  }

  /** @throws ForbiddenError (1001) when a manager sets another department. */
  async set(actor: ActorContext, name: string, body: UpdateDepartmentAutonomyDto): Promise<DepartmentAutonomyDto> {
    const before = await this.findOrThrow(name);
    if (actor.role === HumanRole.Manager && actor.department !== before.nameKey) {
      throw new ForbiddenError(
        `Managers may only set the autonomy of their own department; "${before.name}" is not yours`,
      );
    }
    const level = asLevel(body.level);
    const after = await this.company.setDepartmentAutonomy(before, level);
    const dto = this.toDto(after);
    await this.audit.record({
      kind: 'autonomy_change',
      agentId: null,
      taskId: null,
      toolName: null,
      actionType: null,
      verdict: dto.level,
      enforced: dto.level,
      riskLevel: 'low',
      reason:
        `department ${before.name} autonomy set to ${level ?? 'inherit'} (was ${before.autonomyLevel ?? 'inherit'})` +
        (body.reason ? `: ${body.reason}` : ''),
      mode: 'active',
      finding: `department:${before.nameKey}`.slice(0, 128),
      errorCode: null,
      actor: actor.userId,
    });
    return dto;
  }

  private async findOrThrow(name: string): Promise<DepartmentEntity> {
    const row = await this.company.findDepartment(name);
    if (!row) {
      throw new NotFoundError(`Department "${name}" not found`, ErrorCode.DepartmentNotFound);
    }
    return row;
  }

  private toDto(row: DepartmentEntity): DepartmentAutonomyDto {
    const own = asLevel(row.autonomyLevel);
    const companyLevel = asLevel(this.settings.value('company', 'autonomy_level')) ?? 'semi';
    return { department: row.name, autonomy_level: own, company_level: companyLevel, level: own ?? companyLevel };
  }
}
