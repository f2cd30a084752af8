import { Module } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '@app/platform';

import { AgentsModule } from '../agents';
import { ModelRouter, ProvidersModule } from '../providers';
import { TasksModule } from '../tasks';
import { AgentRunner } from './agent-runner';
import { providerQuotaCheck, taskBudgetCheck } from './preflight-checks';
import { RunPreflight } from './run-preflight';
import { RunRecordsRepository } from './run-records.repository';
import { RunSpend } from './run-spend';
import { TaskEngine } from './task-engine';
import { builtinTools } from './tools/builtin-tools';
import { ToolInvoker } from './tools/tool-invoker';
import { WorkspaceManager } from './workspace/workspace-manager';

/**
 * The work engine that runs assigned tasks: the dispatcher and job queue, the runner, the ordered
 * pre-flight pipeline, the tools and the git workspaces. It takes tasks from the tasks module's
 * RunDispatch and writes them back through TaskLifecycle. Other modules extend it by registering
 * pre-flight checks with RunPreflight, the spend control (budget) with RunSpend, and security checks
 * and output scanners with ToolInvoker.
 */
@Module({
  imports: [AgentsModule, ProvidersModule, TasksModule],
  providers: [
    AgentRunner,
    RunRecordsRepository,
    RunSpend,
    TaskEngine,
    {
      provide: RunPreflight,
      inject: [ModelRouter],
      useFactory: (router: ModelRouter): RunPreflight => {
        const preflight = new RunPreflight();
        preflight.register(taskBudgetCheck());
        preflight.register(providerQuotaCheck(router));
        return preflight;
      },
    },
    {
      provide: ToolInvoker,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): ToolInvoker =>
        new ToolInvoker({ tools: builtinTools(), timeoutMs: config.engine.toolTimeoutSeconds * 1000 }),
    },
    {
      provide: WorkspaceManager,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): WorkspaceManager =>
        new WorkspaceManager({
          baseDir: config.engine.workspaceDir,
          maxConcurrentWorktrees: config.engine.maxWorktrees,
        }),
    },
  ],
  exports: [RunPreflight, RunSpend, TaskEngine, ToolInvoker],
})
export class EngineModule {}
