import { Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';

import { StartupResumeHooks } from '@app/platform';

import { AgentsModule } from '../agents';
import { ApprovalsModule } from '../approvals';
import { AuditModule } from '../audit';
import { EngineModule } from '../engine';
import { MemoryModule } from '../memory';
import { MessagesModule } from '../messages';
import { TasksModule } from '../tasks';
import { FiringApprovals } from './firing-approvals';
import { OffboardAgentUseCase } from './offboard-agent.use-case';
import { OffboardingController } from './offboarding.controller';
import { OffboardingRepository } from './offboarding.repository';
import { OffboardingService } from './offboarding.service';
import { TaskHandover } from './task-handover';

/**
 * Firing and offboarding (engine.md §13): `POST /agents/{agent_name}/fire` and the offboarding
 * record. The pipeline writes agents and career events through AgentRoster, tasks through
 * TaskLifecycle, and the team's notice through MessagePosting; it waits for runs through the
 * engine's RunEnds. A pipeline a crash left unfinished is resumed at startup. Firing may also come
 * from an approved `org:fire` item (FiringApprovals). The only writer of `offboarding_records`.
 */
@Module({
  imports: [AgentsModule, ApprovalsModule, AuditModule, EngineModule, MemoryModule, MessagesModule, TasksModule],
  controllers: [OffboardingController],
  providers: [FiringApprovals, OffboardAgentUseCase, OffboardingRepository, OffboardingService, TaskHandover],
})
export class OffboardingModule implements OnModuleInit, OnModuleDestroy {
  private off: (() => void) | null = null;

  constructor(
    private readonly hooks: StartupResumeHooks,
    private readonly offboarding: OffboardingService,
  ) {}

  onModuleInit(): void {
    this.off = this.hooks.register({ name: 'offboarding.resume', run: () => this.offboarding.resumeUnfinished() });
  }

  onModuleDestroy(): void {
    this.off?.();
  }
}
