import { Module, type OnModuleInit } from '@nestjs/common';

import { APP_CONFIG, type AppConfig, ServiceMetrics } from '@app/platform';

import { ActivitySources, AgentsModule } from '../agents';
import { ModelRouter, ProvidersModule } from '../providers';
import { TasksModule } from '../tasks';
import { AgentRunner } from './agent-runner';
import { HeldRunsRepository } from './holds/held-runs.repository';
import { ReplicaLiveness } from './liveness/replica-liveness';
import { RunHolds } from './holds/run-holds';
import { ParkedRunsRepository } from './parking/parked-runs.repository';
import { RunParking } from './parking/run-parking';
import { providerQuotaCheck, taskBudgetCheck } from './preflight-checks';
import { RunEnds } from './run-ends';
import { RunFinisher } from './run-finisher';
import { RunMemory } from './run-memory';
import { RunOutputs } from './run-outputs';
import { RunPreflight } from './run-preflight';
import { RunRecordsRepository } from './run-records.repository';
import { RunRecovery } from './run-recovery';
import { RunSpend } from './run-spend';
import { TaskEngine } from './task-engine';
import { builtinTools } from './tools/builtin-tools';
import { ToolInvoker } from './tools/tool-invoker';
import { MergedFiles } from './workspace/merged-files';
import { WorkspaceManager } from './workspace/workspace-manager';

/**
 * The work engine that runs assigned tasks: the dispatcher and job queue, the runner, the ordered
 * pre-flight pipeline, the tools and the git workspaces. It takes tasks from the tasks module's
 * RunDispatch and writes them back through TaskLifecycle. Other modules extend it by registering
 * pre-flight checks with RunPreflight, the spend control (budget) with RunSpend, security checks,
 * output scanners and tool-offer filters with ToolInvoker, final-answer scanners with RunOutputs,
 * and the approval gate (where escalated tool calls park their runs) with RunParking. Runs a budget
 * limit stopped are held (RunHolds) and shown in the activity feed.
 */
@Module({
  imports: [AgentsModule, ProvidersModule, TasksModule],
  providers: [
    AgentRunner,
    HeldRunsRepository,
    ParkedRunsRepository,
    ReplicaLiveness,
    RunEnds,
    RunFinisher,
    RunMemory,
    RunHolds,
    RunParking,
    RunRecordsRepository,
    RunRecovery,
    RunSpend,
    TaskEngine,
    { provide: RunOutputs, useFactory: (): RunOutputs => new RunOutputs() },
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
      inject: [APP_CONFIG, ServiceMetrics],
      useFactory: (config: AppConfig, metrics: ServiceMetrics): ToolInvoker =>
        new ToolInvoker({
          tools: builtinTools(),
          timeoutMs: config.engine.toolTimeoutSeconds * 1000,
          onInvoked: (tool, verdict, durationMs) => {
            // A name no tool has is the model's invention: one label for all of them.
            const name = tool ?? 'unknown';
            metrics.toolCalls.inc({ tool: name, verdict });
            if (verdict === 'succeeded' || verdict === 'failed' || verdict === 'withheld') {
              metrics.toolDuration.observe({ tool: name }, durationMs / 1000);
            }
          },
        }),
    },
    {
      provide: MergedFiles,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig): MergedFiles => new MergedFiles(config.engine.workspaceDir),
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
  exports: [MergedFiles, RunEnds, RunMemory, RunOutputs, RunParking, RunPreflight, RunSpend, TaskEngine, ToolInvoker],
})
export class EngineModule implements OnModuleInit {
  constructor(
    private readonly activities: ActivitySources,
    private readonly holds: RunHolds,
  ) {}

  onModuleInit(): void {
    this.activities.register(this.holds.activitySource());
  }
}
