import { Module } from '@nestjs/common';

import { AuditController } from './audit.controller';
import { AuditRetention } from './audit-retention';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { AuditTrail } from './audit-trail';

/**
 * The append-only, hash-chained audit trail: other modules record through AuditTrail; auditors read
 * and verify it. The only writer of `audit_entries`.
 */
@Module({
  controllers: [AuditController],
  providers: [AuditRepository, AuditRetention, AuditService, AuditTrail],
  exports: [AuditTrail],
})
export class AuditModule {}
