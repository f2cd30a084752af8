import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { Logger } from 'pino';

import { Channel } from '@app/domain';
import { EventBus, LOGGING_RUNTIME, type LoggingRuntime, StartupResumeHooks, subscribeTo } from '@app/platform';

import { AgentsModule } from '../agents';
import { ApprovalsModule } from '../approvals';
import { AuditModule } from '../audit';
import { BudgetModule } from '../budget';
import { CompanyModule } from '../company';
import { EngineModule, ToolInvoker } from '../engine';
import { ProvidersModule } from '../providers';
import { SettingsModule } from '../settings';
import { SetupModule } from '../setup';
import { RunDispatch, TasksModule } from '../tasks';
import { CandidateBuilder } from './candidate-builder';
import { HiringBudget } from './hiring-budget';
import { HiringController } from './hiring.controller';
import { HiringRepository } from './hiring.repository';
import { HiringService } from './hiring.service';
import { HIRING_SETTINGS } from './hiring.settings';
import { InstantiateHireUseCase } from './instantiate-hire.use-case';
import { OnboardingBriefing } from './onboarding-briefing';
import { OnboardingController } from './onboarding.controller';
import { OnboardingRepository } from './onboarding.repository';
import { OnboardingService } from './onboarding.service';
import { requestHireTool } from './request-hire.tool';

/**
 * Hiring and onboarding (engine.md §13): hiring requests and their candidates, the decisions (by a
 * manager's filing or an `org:hire` approval item, applied from the approvals channel on every
 * replica), the making of the agent, its onboarding checklist run by the agent through the engine,
 * and the agents' `request_hire` tool. The only writer of `hiring_requests` and `agent_onboardings`.
 */
@Module({
  imports: [
    AgentsModule,
    ApprovalsModule,
    AuditModule,
    BudgetModule,
    CompanyModule,
    EngineModule,
    ProvidersModule,
    SettingsModule.forFeature(HIRING_SETTINGS),
    SetupModule,
    TasksModule,
  ],
  controllers: [HiringController, OnboardingController],
  providers: [
    CandidateBuilder,
    HiringBudget,
    HiringRepository,
    HiringService,
    InstantiateHireUseCase,
    OnboardingBriefing,
    OnboardingRepository,
    OnboardingService,
  ],
})
export class HiringModule implements OnModuleInit, OnModuleDestroy {
  private readonly log: Logger;
  private readonly offs: Array<() => void> = [];
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly hiring: HiringService,
    private readonly onboarding: OnboardingService,
    private readonly tools: ToolInvoker,
    private readonly dispatch: RunDispatch,
    private readonly hooks: StartupResumeHooks,
    private readonly bus: EventBus,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('hr.hiring');
  }

  onModuleInit(): void {
    this.tools.registerTool(requestHireTool(this.hiring));
    this.offs.push(
      subscribeTo(this.bus, Channel.Approvals, (event) => {
        if (event.event_type !== 'approval.decided' && event.event_type !== 'approval.expired') {
          return;
        }
        const item = event.payload.approval as {
          id: string;
          action_type?: unknown;
          status?: unknown;
          decided_by?: unknown;
          decision_reason?: unknown;
        };
        if (item.action_type !== 'org:hire') {
          return;
        }
        this.track(
          this.hiring.decided({
            id: item.id,
            status: typeof item.status === 'string' ? item.status : '',
            decidedBy: typeof item.decided_by === 'string' ? item.decided_by : null,
            reason: typeof item.decision_reason === 'string' ? item.decision_reason : null,
          }),
        );
      }),
      this.dispatch.onMoved((move) => this.track(this.onboarding.onTaskMoved(move))),
      this.hooks.register({
        name: 'hiring.reconcile',
        run: async () => {
          await this.hiring.reconcile();
          await this.onboarding.reconcile();
        },
      }),
    );
  }

  async onModuleDestroy(): Promise<void> {
    this.offs.splice(0).forEach((off) => off());
    await Promise.allSettled([...this.pending]);
  }

  /** Waits for the work events started so far (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) {
      await Promise.allSettled([...this.pending]);
    }
  }

  private track(work: Promise<void>): void {
    const run = work.catch((error: unknown) => {
      this.log.warn({ err: error }, 'hr.hiring.event_failed');
    });
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }
}
