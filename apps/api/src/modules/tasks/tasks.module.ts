import { Module } from '@nestjs/common';

import { APP_CONFIG, type AppConfig } from '@app/platform';

import { AgentsModule } from '../agents';
import { CompanyModule } from '../company';
import { ModelRouter, ProvidersModule } from '../providers';
import { AgentRunner } from './runtime/agent-runner';
import { providerQuotaCheck, taskBudgetCheck } from './runtime/preflight-checks';
import { RunPreflight } from './runtime/run-preflight';
import { RunRecordsRepository } from './runtime/run-records.repository';
import { TaskEngine } from './runtime/task-engine';
import { builtinTools } from './runtime/tools/builtin-tools';
import { ToolInvoker } from './runtime/tools/tool-invoker';
import { WorkspaceManager } from './runtime/workspace/workspace-manager';
import { TaskLifecycle } from './task-lifecycle';
import { TasksController } from './tasks.controller';
import { TasksRepository } from './tasks.repository';
import { TasksService } from './tasks.service';

/**
 * Tasks and the work engine that runs them: the API and the single task writer (TaskLifecycle),
 * and the runtime (dispatcher, runner, pre-flight pipeline, tools, git workspaces). Other modules
 * extend the engine through RunPreflight (pre-flight steps) and ToolInvoker (security checks and
 * output scanners).
 */
@Module({
  imports: [AgentsModule, CompanyModule, ProvidersModule],
  controllers: [TasksController],
  providers: [
    AgentRunner,
    RunRecordsRepository,
    TaskEngine,
    TaskLifecycle,
    TasksRepository,
    TasksService,
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
  exports: [RunPreflight, TaskEngine, TaskLifecycle, TasksService, ToolInvoker],
})
export class TasksModule {}
