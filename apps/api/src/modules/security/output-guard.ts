import { Injectable } from '@nestjs/common';

import {
  OUTPUT_WITHHELD_MESSAGE,
  scanOutput,
  scanPolicyFor,
  type ToolContext,
  type ToolOutputScanner,
  type ToolOutputVerdict,
  toolSecurityProfile,
} from '@app/domain';

import { AutonomyControl } from './autonomy-control';
import { SecurityAudit } from './security-audit';
import { SecurityPolicySource } from './security-policy';

/**
 * The output scan the engine runs on every tool result: credentials and personal data are redacted,
 * withheld or only logged, as the scan policy in force says (`autonomy_tiered` by the agent's level).
 * Shadow mode records the finding and passes the output on. A throw here withholds the output.
 */
@Injectable()
export class OutputGuard implements ToolOutputScanner {
  readonly name = 'security.output_scan';

  constructor(
    private readonly policies: SecurityPolicySource,
    private readonly autonomy: AutonomyControl,
    private readonly audit: SecurityAudit,
  ) {}

  async scan(output: string, call: { tool: string }, ctx: ToolContext): Promise<ToolOutputVerdict> {
    const mode = this.policies.mode();
    if (mode === 'disabled' || !this.policies.scanningEnabled()) {
      return { action: 'pass' };
    }
    const state = await this.autonomy.stateOf(ctx.agentId);
    const policy = scanPolicyFor(this.policies.scanPolicy(), state.level);
    const result = scanOutput(output, policy);
    if (result.outcome === 'clean') {
      return { action: 'pass' };
    }
    const enforced = mode === 'shadow' ? 'log_only' : result.outcome;
    // The record names the patterns only: nothing the scan found is stored in clear.
    await this.audit.record({
      kind: 'output_scan',
      agentId: ctx.agentId,
      taskId: ctx.taskId,
      toolName: call.tool.slice(0, 64),
      actionType: toolSecurityProfile(call.tool).action,
      verdict: result.outcome,
      enforced,
      riskLevel: 'high',
      reason: `output scan (${policy}) found ${result.findings.join(', ')}`,
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
