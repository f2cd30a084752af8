import { Module, type OnModuleInit } from '@nestjs/common';

import { ActivitySources, AgentsModule } from '../agents';
import { CompanyModule } from '../company';
import { EngineModule, ToolInvoker } from '../engine';
import { MessagesModule } from '../messages';
import { SettingsModule } from '../settings';
import { TasksModule } from '../tasks';
import { delegateTaskTool } from './delegate-task.tool';
import { delegationActivitySource } from './delegation-activity';
import { DelegationRepository } from './delegation.repository';
import { DelegationService } from './delegation.service';
import { DELEGATION_SETTINGS } from './delegation.settings';

/**
 * Delegation: the agents' `delegate_task` tool, registered with the engine, the authority and
 * loop-prevention checks, and the delegation records behind the delegation_sent and
 * delegation_received activities. The only writer of `delegation_records`.
 */
@Module({
  imports: [
    AgentsModule,
    CompanyModule,
    EngineModule,
    MessagesModule,
    SettingsModule.forFeature(DELEGATION_SETTINGS),
    TasksModule,
  ],
  providers: [DelegationRepository, DelegationService],
  exports: [DelegationService],
})
export class DelegationModule implements OnModuleInit {
  constructor(
    private readonly tools: ToolInvoker,
    private readonly delegation: DelegationService,
    private readonly activities: ActivitySources,
    private readonly records: DelegationRepository,
  ) {}

  onModuleInit(): void {
    this.tools.registerTool(delegateTaskTool(this.delegation));
    this.activities.register(delegationActivitySource(this.records));
  }
}
