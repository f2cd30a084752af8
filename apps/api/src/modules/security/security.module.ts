import { Inject, Module, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';

import { AgentsModule } from '../agents';
import { AuditModule } from '../audit';
import { BudgetExhaustion, BudgetModule } from '../budget';
import { CompanyModule } from '../company';
import { EngineModule, ToolInvoker } from '../engine';
import { SettingsModule } from '../settings';
import { AgentAutonomyController } from './agent-autonomy.controller';
import { AgentAutonomyService } from './agent-autonomy.service';
import { AutonomyControl } from './autonomy-control';
import { OutputGuard } from './output-guard';
import { runCommandTool } from './sandbox/run-command.tool';
import { SandboxRunner } from './sandbox/sandbox-runner';
import { SANDBOX_SETTINGS } from './sandbox/sandbox.settings';
import { SecurityAudit } from './security-audit';
import { SecurityPolicySource } from './security-policy';
import { SECURITY_SETTINGS } from './security.settings';
import { SecurityRepository } from './security.repository';
import { ToolCallGuard } from './tool-call-guard';

/**
 * Security: the evaluation pipeline before every tool call and the output scan after it (both
 * registered with the engine's ToolInvoker), autonomy resolution and downgrades, and the security
 * records. Owns the `security` settings namespace and the security_records and autonomy_downgrades
 * tables.
 */
@Module({
  imports: [
    AgentsModule,
    AuditModule,
    BudgetModule,
    CompanyModule,
    EngineModule,
    SettingsModule.forFeature([...SECURITY_SETTINGS, ...SANDBOX_SETTINGS]),
  ],
  controllers: [AgentAutonomyController],
  providers: [
    AgentAutonomyService,
    AutonomyControl,
    OutputGuard,
    SecurityAudit,
    SecurityPolicySource,
    SandboxRunner,
    SecurityRepository,
    ToolCallGuard,
  ],
  exports: [AutonomyControl],
})
export class SecurityModule implements OnModuleInit, OnApplicationBootstrap {
  constructor(
    @Inject(ToolInvoker) private readonly invoker: ToolInvoker,
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
