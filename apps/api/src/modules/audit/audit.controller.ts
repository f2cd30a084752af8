import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';

import { type Page, Permission } from '@app/domain';
import { Endpoint, RequiresSubsystems } from '@app/platform';

import { AuditEntryResponseDto, AuditQueryDto, AuditVerificationDto } from './dto/audit.dto';
import { AuditService } from './audit.service';

/** The audit trail for auditors (the CEO and the Board Member): one-line pass-throughs. */
@ApiTags('audit')
@ApiBearerAuth()
@Controller('audit')
@RequiresSubsystems('persistence')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @Endpoint({
    summary: 'Audit rows filtered by actor, action and time range, newest first',
    description: '400 with error_code 2057 when until is before since.',
    paged: AuditEntryResponseDto,
    errors: [400, 401, 403],
    permission: Permission.Audit,
  })
  list(@Query() query: AuditQueryDto): Promise<Page<AuditEntryResponseDto>> {
    return this.audit.list(query, { offset: query.offset, limit: query.limit });
  }

  @Get('verify')
  @Endpoint({
    summary: 'Verify the hash chain: ok, or the first row that was edited or follows a deleted one',
    response: AuditVerificationDto,
    errors: [401, 403],
    permission: Permission.Audit,
  })
  verify(): Promise<AuditVerificationDto> {
    return this.audit.verify();
  }
}
