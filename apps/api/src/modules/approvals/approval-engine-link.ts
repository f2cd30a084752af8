import { Inject, Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { LOGGING_RUNTIME, type LoggingRuntime, StartupResumeHooks } from '@app/platform';

import { RunParking } from '../engine';
import { ApprovalsRepository } from './approvals.repository';
import { ApprovalsService } from './approvals.service';
import { ApprovalOutcomes } from './approval-outcomes';

/**
 * Connects the queue to the engine: registers the approval gate (escalated tool calls become pending
 * items and their runs park), and at startup hands the engine the decisions a previous process
 * stored but did not pass on (startup rule 11; the engine then re-dispatches every decided run).
 */
@Injectable()
export class ApprovalEngineLink implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  private readonly offs: (() => void)[] = [];

  constructor(
    private readonly parking: RunParking,
    private readonly service: ApprovalsService,
    private readonly approvals: ApprovalsRepository,
    private readonly outcomes: ApprovalOutcomes,
    private readonly hooks: StartupResumeHooks,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('approvals');
  }

  onModuleInit(): void {
    this.offs.push(this.parking.registerGate({ request: (call) => this.service.fileEscalation(call) }));
    this.offs.push(this.hooks.register({ name: 'approvals.redispatch', run: () => this.passOnDecisions() }));
  }

  onModuleDestroy(): void {
    this.offs.splice(0).forEach((off) => off());
  }

  /** Runs still parked whose items were decided (or expired) before a crash: pass the decision on. */
  async passOnDecisions(): Promise<void> {
    let passed = 0;
    for (const approvalId of await this.parking.parkedApprovals()) {
      const row = await this.approvals.findById(approvalId);
      if (row && row.status !== 'pending') {
        await this.outcomes.resume(row);
        passed += 1;
      }
    }
    if (passed > 0) {
      this.log.info({ passed }, 'approvals.startup.decisions_passed');
    }
  }
}
