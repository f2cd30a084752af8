import { Injectable } from '@nestjs/common';

import { ErrorCode, Page, type PageRequest, ValidationError } from '@app/domain';

import type { AuditEntryResponseDto, AuditQueryDto, AuditVerificationDto } from './dto/audit.dto';
import { rowToAuditEntry } from './audit.mapper';
import { AuditRepository } from './audit.repository';
import { AuditTrail } from './audit-trail';

/** The auditors' use cases: list and verify. */
@Injectable()
export class AuditService {
  constructor(
    private readonly rows: AuditRepository,
    private readonly trail: AuditTrail,
  ) {}

  async list(query: AuditQueryDto, page: PageRequest): Promise<Page<AuditEntryResponseDto>> {
    const since = query.since ? new Date(query.since) : undefined;
    const until = query.until ? new Date(query.until) : undefined;
    if (since && until && until < since) {
      throw new ValidationError('until must not be before since', ErrorCode.AuditRangeInvalid);
    }
    const { rows, total } = await this.rows.page({ actor: query.actor, action: query.action, since, until }, page);
    return new Page(rows.map(rowToAuditEntry), total, page.offset, page.limit);
  }

  async verify(): Promise<AuditVerificationDto> {
    const { checked, broken } = await this.trail.verify();
    return { ok: broken === null, checked, broken_seq: broken?.seq ?? null, reason: broken?.reason ?? null };
  }
}
