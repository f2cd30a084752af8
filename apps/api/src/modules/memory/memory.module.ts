import { Module, type OnModuleInit } from '@nestjs/common';

import { AgentRoster, AgentsModule } from '../agents';
import { ApprovalsModule } from '../approvals';
import { EngineModule, ToolInvoker } from '../engine';
import { ProvidersModule } from '../providers';
import { SettingsModule } from '../settings';
import { TaskLifecycle, TasksModule } from '../tasks';
import { MemoryApi } from './memory.api';
import { MemoryBackup } from './memory-backup';
import { MemoryController } from './memory.controller';
import { MemoryConsolidation } from './memory-consolidation';
import { MemoryEmbedder } from './memory-embedder';
import { MemoryRepository } from './memory.repository';
import { MemoryReembedding } from './memory-reembedding';
import { MemoryService } from './memory.service';
import { MEMORY_SETTINGS } from './memory.settings';
import { MEMORY_TOOLS, proposeOrgFactTool, recallTool, rememberTool } from './memory.tools';
import { OrgFactProposals } from './org-fact-proposals';

/**
 * Agent memory: the embedder (through the provider drivers), the entries and org facts (the only
 * writer of `memory_entries` and `org_facts`), this replica's vector index, the memory a run starts
 * with and the episode it leaves (plugged into the engine's RunMemory), the `remember` and `recall`
 * tools, agents' proposals of organisation facts (through approval items) and the API. Owns the `memory` settings.
 */
@Module({
  imports: [
    AgentsModule,
    ApprovalsModule,
    EngineModule,
    ProvidersModule,
    TasksModule,
    SettingsModule.forFeature(MEMORY_SETTINGS),
  ],
  controllers: [MemoryController],
  providers: [
    MemoryApi,
    MemoryBackup,
    MemoryConsolidation,
    MemoryEmbedder,
    MemoryReembedding,
    MemoryRepository,
    MemoryService,
    OrgFactProposals,
  ],
  exports: [MemoryBackup, MemoryConsolidation, MemoryReembedding, MemoryService, OrgFactProposals],
})
export class MemoryModule implements OnModuleInit {
  constructor(
    private readonly tools: ToolInvoker,
    private readonly memory: MemoryService,
    private readonly roster: AgentRoster,
    private readonly tasks: TaskLifecycle,
    private readonly proposals: OrgFactProposals,
  ) {}

  onModuleInit(): void {
    const deps = { memory: this.memory, roster: this.roster, tasks: this.tasks };
    this.tools.registerTool(rememberTool(deps));
    this.tools.registerTool(recallTool(deps));
    this.tools.registerTool(proposeOrgFactTool({ ...deps, proposals: this.proposals }));
    // Offered only while a backend is wired, and not to an agent that keeps no memory.
    this.tools.registerOfferFilter({
      name: 'memory',
      offer: (tools, agent) =>
        this.memory.offersTools(agent) ? tools : tools.filter((name) => !MEMORY_TOOLS.has(name)),
    });
  }
}
