import { Module } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { AuditModule } from '../audit';
import { EngineModule } from '../engine';
import { SettingsModule } from '../settings';
import { TasksModule } from '../tasks';
import { ApprovalEngineLink } from './approval-engine-link';
import { ApprovalOutcomes } from './approval-outcomes';
import { ApprovalPolicy } from './approval-policy';
import { ApprovalTimeouts } from './approval-timeouts';
import { ApprovalsController } from './approvals.controller';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalsService } from './approvals.service';
import { APPROVAL_SETTINGS } from './approvals.settings';

/**
 * The human approval queue: the routes, the timeout sweep, the engine's approval gate (escalated
 * tool calls park their runs on an item) and the only writer of `approval_items`.
 */
@Module({
  imports: [AgentsModule, AuditModule, EngineModule, SettingsModule.forFeature(APPROVAL_SETTINGS), TasksModule],
  controllers: [ApprovalsController],
  providers: [
    ApprovalEngineLink,
    ApprovalOutcomes,
    ApprovalPolicy,
    ApprovalTimeouts,
    ApprovalsRepository,
    ApprovalsService,
  ],
  exports: [ApprovalsService],
})
export class ApprovalsModule {}
