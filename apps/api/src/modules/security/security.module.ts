import { Inject, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { ApprovalsModule } from '../approvals';
import { AuditModule } from '../audit';
import { BudgetExhaustion, BudgetModule } from '../budget';
import { CompanyModule } from '../company';
import { EngineModule, RunOutputs, ToolInvoker } from '../engine';
import { RunLedgerModule } from '../run-ledger';
import { SettingsModule } from '../settings';
import { AgentAutonomyController } from './agent-autonomy.controller';
import { AgentAutonomyService } from './agent-autonomy.service';
import { toolAccessOfferFilter } from './agent-tool-access';
import { AgentTrustController } from './agent-trust.controller';
import { AgentTrustService } from './agent-trust.service';
import { AutonomyControl } from './autonomy-control';
import { DepartmentAutonomyController } from './department-autonomy.controller';
import { DepartmentAutonomyService } from './department-autonomy.service';
import { OutputGuard } from './output-guard';
import { RunOutcomeWatcher } from './run-outcome.watcher';
import { runCommandTool } from './sandbox/run-command.tool';
import { SandboxRunner } from './sandbox/sandbox-runner';
import { SANDBOX_SETTINGS } from './sandbox/sandbox.settings';
import { SecurityAudit } from './security-audit';
import { SecurityPolicySource } from './security-policy';
import { SECURITY_SETTINGS } from './security.settings';
import { SecurityRepository } from './security.repository';
import { ToolCallGuard } from './tool-call-guard';
import { TrustControl } from './trust-control';
import { TrustSweep } from './trust-sweep';

/**
 * Security: the evaluation pipeline before every tool call and the output scan after it (both
 * registered with the engine's ToolInvoker), the scan of every run's final answer (RunOutputs), the
 * tool offer narrowed to the agent's access level, autonomy resolution and downgrades (a high error
 * rate, a spent budget, an incident), agent and department autonomy writes, progressive trust, and
 * the security records. Owns the `security` settings namespace and the security_records,
 * autonomy_downgrades and agent_trust tables.
 */
@Module({
  imports: [
    AgentsModule,
    ApprovalsModule,
    AuditModule,
    BudgetModule,
    CompanyModule,
    EngineModule,
    RunLedgerModule,
    SettingsModule.forFeature([...SECURITY_SETTINGS, ...SANDBOX_SETTINGS]),
  ],
  controllers: [AgentAutonomyController, AgentTrustController, DepartmentAutonomyController],
  providers: [
    AgentAutonomyService,
    AgentTrustService,
    AutonomyControl,
    DepartmentAutonomyService,
    OutputGuard,
    RunOutcomeWatcher,
    SecurityAudit,
    SecurityPolicySource,
    SandboxRunner,
    SecurityRepository,
    ToolCallGuard,
    TrustControl,
    TrustSweep,
  ],
  exports: [AutonomyControl],
})
export class SecurityModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @Inject(ToolInvoker) private readonly invoker: ToolInvoker,
    @Inject(RunOutputs) private readonly runOutputs: RunOutputs,
    private readonly guard: ToolCallGuard,
    private readonly outputs: OutputGuard,
    private readonly policies: SecurityPolicySource,
    private readonly sandboxes: SandboxRunner,
    private readonly exhaustion: BudgetExhaustion,
    private readonly autonomy: AutonomyControl,
  ) {}

  onModuleInit(): void {
    // Refuses to boot on an unknown action type in the configured lists (the error names it).
    this.policies.policy();
    this.invoker.registerSecurityCheck(this.guard);
    this.invoker.registerOutputScanner(this.outputs);
    this.invoker.registerOfferFilter(toolAccessOfferFilter(this.policies));
    this.runOutputs.register(this.outputs.finalAnswers);
    this.invoker.registerTool(runCommandTool(this.sandboxes));
    // A spent budget lowers the agent that hit it to supervised until a person raises it again.
    this.exhaustion.onExhausted(async (event) => {
      await this.autonomy.lowerTo(event.agentId, 'supervised', 'budget_exhausted', event.reason);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.sandboxes.warnIfUnavailable();
  }
}
