import { Injectable } from '@nestjs/common';

import {
  OUTPUT_WITHHELD_MESSAGE,
  redactSecrets,
  type RunOutputContext,
  type RunOutputScanner,
  scanOutcome,
  scanPolicyFor,
  type ToolContext,
  type ToolOutputScanner,
  type ToolOutputVerdict,
  toolSecurityProfile,
  type ToolSecurityProfile,
} from '@app/domain';

import { AutonomyControl } from './autonomy-control';
import { SecurityAudit } from './security-audit';
import { SecurityPolicySource } from './security-policy';

/** What was scanned: a tool's result (named) or the agent's final answer (no tool). */
interface ScanSubject {
  agentId: string;
  taskId: string;
  tool: string | null;
  /** The tool's declared action type (a tool server's), else the profile table's. */
  action?: string;
  /** For a run's own text: which part it is. */
  part?: 'final_answer' | 'earlier_turn';
}

/**
 * The output scan the engine runs on every tool result and on the agent's final answer: credentials
 * and personal data are redacted, withheld or only logged, as the scan policy in force says
 * (`autonomy_tiered` by the agent's level). Shadow mode records the finding and passes the output on.
 * A throw here withholds the output.
 */
@Injectable()
export class OutputGuard implements ToolOutputScanner {
  readonly name = 'security.output_scan';

  /** The same scan, registered with the engine's RunOutputs for final answers. */
  readonly finalAnswers: RunOutputScanner = {
    name: 'security.final_output_scan',
    scan: (output: string, ctx: RunOutputContext) =>
      this.judge(output, { agentId: ctx.agentId, taskId: ctx.taskId, tool: null, part: ctx.part ?? 'final_answer' }),
  };

  constructor(
    private readonly policies: SecurityPolicySource,
    private readonly autonomy: AutonomyControl,
    private readonly audit: SecurityAudit,
  ) {}

  scan(
    output: string,
    call: { tool: string; profile?: ToolSecurityProfile },
    ctx: ToolContext,
  ): Promise<ToolOutputVerdict> {
    return this.judge(output, {
      agentId: ctx.agentId,
      taskId: ctx.taskId,
      tool: call.tool,
      action: call.profile?.action,
    });
  }

  private async judge(output: string, subject: ScanSubject): Promise<ToolOutputVerdict> {
    const mode = this.policies.mode();
    if (mode === 'disabled' || !this.policies.scanningEnabled()) {
      return { action: 'pass' };
    }
    const found = redactSecrets(output);
    if (found.findings.length === 0) {
      // Clean under every policy: the agent's autonomy (which picks a tiered policy) is not needed.
      return { action: 'pass' };
    }
    const state = await this.autonomy.stateOf(subject.agentId);
    const policy = scanPolicyFor(this.policies.scanPolicy(), state.level);
    const result = scanOutcome(output, found, policy);
    if (result.outcome === 'clean') {
      return { action: 'pass' };
    }
    const enforced = mode === 'shadow' ? 'log_only' : result.outcome;
    const what =
      subject.tool !== null
        ? 'output scan'
        : subject.part === 'earlier_turn'
          ? 'output scan of an earlier turn'
          : 'final output scan';
    // The record names the patterns only: nothing the scan found is stored in clear.
    await this.audit.record({
      kind: 'output_scan',
      agentId: subject.agentId,
      taskId: subject.taskId,
      toolName: subject.tool?.slice(0, 64) ?? null,
      actionType: subject.tool === null ? null : (subject.action ?? toolSecurityProfile(subject.tool).action),
      verdict: result.outcome,
      enforced,
      riskLevel: 'high',
      reason: `${what} (${policy}) found ${result.findings.join(', ')}`,
      mode,
      finding: result.findings.join(',').slice(0, 128),
      errorCode: null,
      actor: 'system',
    });
    switch (enforced) {
      case 'redacted':
        return { action: 'redact', output: result.text };
      case 'withheld':
        return { action: 'block', reason: OUTPUT_WITHHELD_MESSAGE };
      case 'log_only':
        return { action: 'pass' };
    }
  }
}
