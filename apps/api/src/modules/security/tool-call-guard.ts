import { Inject, Injectable } from '@nestjs/common';
import type { Logger } from 'pino';

import {
  type AutonomyLevel,
  ErrorCode,
  evaluateToolCall,
  resolveToolPermission,
  type SecurityEvaluation,
  type ToolCallInfo,
  type ToolContext,
  type ToolSecurityCheck,
  type ToolCategory,
  type ToolSecurityVerdict,
  serverToolNeedsPerson,
  toolSecurityProfile,
} from '@app/domain';
import { LOGGING_RUNTIME, type LoggingRuntime } from '@app/platform';

import { SettingsSnapshot } from '../settings';
import { toolPermissionsOf } from './agent-tool-access';
import { AutonomyControl } from './autonomy-control';
import { SecurityAudit } from './security-audit';
import { SecurityPolicySource } from './security-policy';
import { SecurityRepository } from './security.repository';

/**
 * The security check the engine runs before every tool call: the agent's autonomy and tool access,
 * the pipeline (engine.md §12), a security record per verdict, and the incident rule on repeated
 * refusals. Anything that throws here refuses the call: the engine's invoker fails closed.
 */
@Injectable()
export class ToolCallGuard implements ToolSecurityCheck {
  readonly name = 'security.pipeline';
  private readonly log: Logger;

  constructor(
    private readonly policies: SecurityPolicySource,
    private readonly autonomy: AutonomyControl,
    private readonly audit: SecurityAudit,
    private readonly repository: SecurityRepository,
    private readonly settings: SettingsSnapshot,
    @Inject(LOGGING_RUNTIME) logging: LoggingRuntime,
  ) {
    this.log = logging.forName('security.guard');
  }

  async check(call: ToolCallInfo, ctx: ToolContext): Promise<ToolSecurityVerdict> {
    const policy = this.policies.policy();
    const profile = call.profile ?? toolSecurityProfile(call.tool);
    if (policy.mode === 'disabled') {
      // No evaluation, but the pass is still on record.
      await this.recordCall(
        ctx,
        call.tool,
        profile.action,
        evaluateToolCall(this.unevaluated(call, profile.action), policy),
      );
      return { decision: 'allow' };
    }
    const state = await this.autonomy.stateOf(ctx.agentId);
    const permission = resolveToolPermission(toolPermissionsOf(state.agent), call.tool, profile.category);
    const evaluation = serverToolRule(
      evaluateToolCall(
        { tool: call.tool, action: profile.action, arguments: call.arguments, autonomy: state.level, permission },
        policy,
      ),
      profile.category,
      profile.action,
      state.level,
    );
    await this.recordCall(ctx, call.tool, profile.action, evaluation);
    if (evaluation.enforced === 'deny') {
      await this.countTowardsIncident(ctx.agentId);
    }
    switch (evaluation.enforced) {
      case 'allow':
        return { decision: 'allow' };
      case 'deny':
        return { decision: 'deny', reason: this.describe(evaluation) };
      case 'escalate':
        return {
          decision: 'escalate',
          reason: this.describe(evaluation),
          actionType: profile.action,
          riskLevel: evaluation.risk,
        };
    }
  }

  private describe(evaluation: SecurityEvaluation): string {
    const code = evaluation.step === 'tool_access' ? ` [${ErrorCode.ToolPermissionDenied}]` : '';
    return `${evaluation.reason} (risk ${evaluation.risk})${code}`;
  }

  private unevaluated(call: ToolCallInfo, action: string) {
    return {
      tool: call.tool,
      action,
      arguments: call.arguments,
      autonomy: 'full' as const,
      permission: { granted: true, rule: 'access_level' as const, reason: 'security disabled' },
    };
  }

  private async recordCall(
    ctx: ToolContext,
    tool: string,
    action: string,
    evaluation: SecurityEvaluation,
  ): Promise<void> {
    if (!this.policies.auditEnabled() && evaluation.enforced === 'allow' && evaluation.verdict === 'allow') {
      return;
    }
    await this.audit.record({
      kind: 'tool_call',
      agentId: ctx.agentId,
      taskId: ctx.taskId,
      toolName: tool.slice(0, 64),
      actionType: action,
      verdict: evaluation.verdict,
      enforced: evaluation.enforced,
      riskLevel: evaluation.risk,
      reason: evaluation.reason,
      mode: evaluation.mode,
      finding: evaluation.finding ?? evaluation.step,
      errorCode: evaluation.step === 'tool_access' ? ErrorCode.ToolPermissionDenied : null,
      actor: 'system',
    });
  }

  // Repeated refusals are a security incident: the agent is locked until a person restores it.
  private async countTowardsIncident(agentId: string): Promise<void> {
    const threshold = this.settings.value<number>('security', 'incident_denial_threshold');
    if (threshold <= 0) {
      return;
    }
    const minutes = this.settings.value<number>('security', 'incident_window_minutes');
    const since = new Date(Date.now() - minutes * 60_000);
    const denials = await this.repository.countDenials(agentId, since);
    if (denials >= threshold) {
      const state = await this.autonomy.downgrade(
        agentId,
        'security_incident',
        `${denials} refused tool calls within ${minutes} minutes`,
      );
      this.log.warn({ agent_id: agentId, denials, level: state.level }, 'security.incident.locked');
    }
  }
}

/**
 * A tool server's high-risk tool (destructive, or one that did not say) goes to a person at every
 * autonomy level but `full`, even where the pipeline would allow its action type: the tool is not
 * the service's own, and its annotations are only the server's word.
 */
function serverToolRule(
  evaluation: SecurityEvaluation,
  category: ToolCategory,
  action: string,
  level: AutonomyLevel,
): SecurityEvaluation {
  if (category !== 'mcp' || evaluation.verdict !== 'allow' || !serverToolNeedsPerson(level, action)) {
    return evaluation;
  }
  const reason = `autonomy ${level} needs a person to approve the server tool's ${action}`;
  return {
    ...evaluation,
    verdict: 'escalate',
    enforced: evaluation.mode === 'shadow' ? 'allow' : 'escalate',
    reason,
    step: 'autonomy',
  };
}
